/**
 * @module What ae_mdw shows of a ContractCallTx the node holds no call object of (a GAMetaTx's failed inner call), built
 * from ae_mdw's own two answers rather than from ours (src/shapes/v3/render-tx.ts, unmadeCall): the oracle the tests
 * of that rendering compare with.
 */
import type { Json } from '../../src/chain/json.ts';

type Obj = { [key: string]: Json };

/** ae_mdw's format_call_info where Contract.call_rec answers an error (no call object): every field nil */
const NO_CALL_INFO: Obj = { call_id: null, return_type: null, gas_used: null, log: null };

/** the decoding ae_mdw records of a call it could not read (call_write of an error): `result` `invalid` */
const UNREAD_CALL: Obj = { function: null, arguments: null, result: 'invalid', return: null };

/**
 * aeMdwCallWithoutObject is the node's ContractCallTx `nodeTx` as ae_mdw's custom_encode shows it without a call
 * object: the called contract's token standard (`aexn_type`), format_call_info's answer and the unread decoding.
 */
export function aeMdwCallWithoutObject(nodeTx: Obj, aexnType: string | null): Obj {
  return { ...nodeTx, aexn_type: aexnType, ...NO_CALL_INFO, ...UNREAD_CALL };
}
