/** @module ae_mdw's Transaction object from a stored transaction: the node's signed tx, its place, and mdw's additions to `tx`. Pure. */
import { encode } from '../../chain/encoding.ts';
import { isJsonObject, stringifyJson, type Json } from '../../chain/json.ts';
import { innerTx, NAME_TX_TYPES, storedCreatedIds } from '../../chain/tx-fields.ts';
import { withParties } from '../../chain/channel-parties.ts';
import { offChainRound } from '../../chain/channel-payload.ts';
import { renderStoredTxFields } from '../../chain/stored-tx.ts';
import { signedTxBytes } from '../../chain/tx-serialize.ts';
import type { TxRow, TxSummaryRow } from '../../db/queries/transactions.ts';
import { callFields, gaAttachArgs, initArgs } from './call-values.ts';

/** transactionObject is the v3 Transaction: block, hash, place, time, signatures, `encoded_tx` and `tx` with mdw's fields. */
export function transactionObject(r: TxRow): Record<string, Json> {
  const signatures = r.signatures ?? [];
  return {
    block_hash: r.microBlockHash,
    block_height: r.height,
    encoded_tx: encodedTx(r),
    hash: r.hash,
    micro_index: r.microIndex,
    micro_time: Number(r.microTimeMs),
    signatures,
    tx: mdwTx(r),
  };
}

/**
 * transactionSummary is transactionObject without what only the whole object needs: its place, hash, time and the
 * stored `tx` with the id it creates, no `signatures`, `encoded_tx`, call outcome or channel parties (the parties of a
 * channel transaction are never its first party or counterparty: its `from_id` and `channel_id` come first). An
 * export's CSV columns read no more (test/integration/v3/account-exports.test.ts compares the two row for row).
 */
export function transactionSummary(r: TxSummaryRow): Record<string, Json> {
  const tx = renderStoredTxFields(r.signed);
  return {
    block_hash: r.microBlockHash,
    block_height: r.height,
    hash: r.hash,
    micro_index: r.microIndex,
    micro_time: Number(r.microTimeMs),
    // the decoded tx is this row's own: completed in place, as withAdditions's copy would be
    tx: Object.assign(tx, storedCreatedIds(tx, r.createdId)),
  };
}

/** transactionJson is transactionObject as JSON text (exact integers). */
export function transactionJson(r: TxRow): string {
  return stringifyJson(transactionObject(r));
}

/**
 * encodedTx is the signed transaction as `tx_…`, as the node would broadcast it: the stored bytes (read so with the row),
 * or for one stored as JSON (chain/stored-tx.ts) its serialisation where the serialiser knows its layout.
 */
export function encodedTx(r: Pick<TxRow, 'encoded' | 'tx' | 'signatures'>): string | null {
  if (r.encoded !== null) return r.encoded;
  try {
    return encode('tx', signedTxBytes({ tx: r.tx, signatures: [...(r.signatures ?? [])] }));
  } catch {
    // an era whose serialisation this codec does not know: the rest of the object is still right
    return null;
  }
}

const ROUND_TYPES = new Set(['ChannelCloseSoloTx', 'ChannelSlashTx', 'ChannelSnapshotSoloTx']);

/**
 * mdwTx is the node's tx with the fields ae_mdw adds: ids a tx creates (name_id, oracle_id,
 * query_id, channel_id, contract_id), the plain name of name transactions, the parties of channel transactions after the
 * creation, the off-chain round of solo channel transactions, and the outcome of
 * contract calls and creations (function, arguments, return, gas used, log) and of a generalized account's own call.
 * A GAMetaTx's or PayingForTx's inner transaction gets its own, but for a ContractCreateTx, as ae_mdw's
 * add_inner_tx_details gives them.
 */
export function mdwTx(r: TxRow): Record<string, Json> {
  const tx = withAdditions(r.parties ? withParties(r.tx, r.parties) : r.tx, r);
  const inner = innerTx(tx);
  if (inner && inner.type !== 'ContractCreateTx') {
    const shown =
      r.unmadeCallStandard === undefined ? withAdditions(inner, r) : unmadeCall(inner, r.unmadeCallStandard);
    tx.tx = { ...(tx.tx as TxObject), tx: shown };
  }
  // ae_mdw adds a generalized account's own call: a GAAttachTx's init, a GAMetaTx's authentication (format.ex)
  if (r.txType === 'GAAttachTx') {
    tx.auth_fun_name = r.gaCall?.auth_fun_name ?? null;
    const args = r.gaCall?.args ?? null;
    tx.args = args === null ? null : gaAttachArgs(args);
  }
  if (r.txType === 'GAAttachTx' || r.txType === 'GAMetaTx') {
    const gasUsed = r.gaCall?.gas_used;
    tx.gas_used = typeof gasUsed === 'string' ? BigInt(gasUsed) : null;
    tx.return_type = r.gaCall?.return_type ?? null;
  }
  return tx;
}

type TxObject = { [key: string]: Json };

/** withAdditions is one tx (the outer one, or the one it wraps) with what ae_mdw adds to a tx of its type. */
function withAdditions(own: TxObject, r: TxRow): TxObject {
  const type = String(own.type);
  const tx: TxObject = { ...own, ...storedCreatedIds(own, r.createdId) };
  if (r.name !== null && NAME_TX_TYPES.has(type)) tx.name = r.name;
  // ae_mdw sends an oracle's query and response as base64 of their bytes (format.ex custom_encode)
  if (type === 'OracleQueryTx') tx.query = base64Text(tx.query);
  if (type === 'OracleRespondTx') tx.response = base64Text(tx.response);
  // ae_mdw adds the round of the off-chain state a solo close, slash or snapshot brings on chain (the explorer shows it)
  if (ROUND_TYPES.has(type)) {
    const round = offChainRound(tx.payload);
    if (round !== undefined) tx.round = round;
  }
  const call = r.call;
  if (call && (type === 'ContractCallTx' || type === 'ContractCreateTx')) {
    const info = isJsonObject(call.call_info) ? call.call_info : {};
    const returnType = info.return_type ?? null;
    tx.gas_used = info.gas_used ?? null;
    tx.return_type = returnType;
    tx.log = info.log ?? [];
    tx.aexn_type = call.aexn_type ?? null;
    if (type === 'ContractCallTx') {
      tx.function = call.function;
      Object.assign(tx, callFields(returnType, call.arguments, call.result));
    } else {
      tx.args = initArgs(call.arguments);
      tx.caller_id = own.owner_id ?? null;
      tx.return_value = info.return_value ?? null;
    }
  }
  return tx;
}

/**
 * unmadeCall is the ContractCallTx of a GAMetaTx whose inner transaction failed (`aexnType`: the called contract's
 * token standard), as ae_mdw's custom_encode of a contract call gives one the node holds no call object of: its
 * format_call_info's answer then (`call_id`, `return_type`, `gas_used`, `log` null) and no decoded call, as
 * ae_mdw records a call it could not read (call_write of an error: `function`, `arguments` and `return` unknown,
 * `result` `invalid`). ae_mdw itself answers 500 there: its
 * call_fun_arg_res fetches a call record its sync never wrote for a failed inner transaction. Pure.
 */
export function unmadeCall(own: TxObject, aexnType: string | null): TxObject {
  return {
    ...own,
    aexn_type: aexnType,
    call_id: null,
    return_type: null,
    gas_used: null,
    log: null,
    function: null,
    arguments: null,
    result: 'invalid',
    return: null,
  };
}

/** base64Text is a query's or response's text as base64 of its UTF-8 bytes (null when absent). Pure. */
export function base64Text(text: Json | undefined): string | null {
  return typeof text === 'string' ? Buffer.from(text, 'utf8').toString('base64') : null;
}
