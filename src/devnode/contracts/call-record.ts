/**
 * @module The outcome and call record (`call_info`, ContractCallObject) of a contract create or
 * call: native contracts run in the engine; other code keeps the devnode's fixed results
 * (fate-contract.ts). Pure over the world state.
 */
import type { Json } from '../../chain/json.ts';
import { contractCallResult } from './fate-contract.ts';
import type { WorldState } from '../store/state.ts';
import { runNative, type CallOutcome, type NativeCall } from './engine.ts';
import { logJson } from './frame.ts';

/** FIXED_CALL_GAS is what a call of code the devnode does not run uses (at most the gas given). */
const FIXED_CALL_GAS = 1000;

/** contractOutcome runs native code, or gives other code its fixed result. */
export function contractOutcome(state: WorldState, call: NativeCall): CallOutcome {
  const native = runNative(state, call);
  if (native) return native;
  const fixed = contractCallResult(call.code, call.callData, call.isCreate);
  return { ...fixed, log: [], gasUsed: Math.min(call.gasLimit, FIXED_CALL_GAS) };
}

/** CallRecordFields are the call record's fields that come from the transaction. */
export interface CallRecordFields {
  readonly caller: string;
  readonly callerNonce: number;
  readonly height: number;
  readonly contract: string;
  readonly gasPrice: Json;
}

/** callRecordJson is the node's ContractCallObject. */
export function callRecordJson(outcome: CallOutcome, fields: CallRecordFields): { [k: string]: Json } {
  return {
    caller_id: fields.caller,
    caller_nonce: fields.callerNonce,
    height: fields.height,
    contract_id: fields.contract,
    gas_price: fields.gasPrice,
    gas_used: outcome.gasUsed,
    log: outcome.log.map(logJson),
    return_value: outcome.returnValue,
    return_type: outcome.returnType,
  };
}
