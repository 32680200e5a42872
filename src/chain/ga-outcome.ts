/**
 * @module Which of the transactions a signed transaction carries took effect, as node 7.2.2 applies them. A GAMetaTx
 * whose inner transaction fails (aega_meta_tx:process_inner: a spend above the balance, a name already claimed, a call
 * that cannot pay its gas) is still mined, its fee and its authentication's gas charged, but the inner transaction is
 * undone and the GA call's return type set to `error` (set_meta_result). Its info tells it: `ga_info.return_type`
 * `error`, `inner_object` then only the inner transaction's type (aehttp_helpers get_ga_meta_tx_info), where a
 * successful one holds the inner transaction's own info. ae_mdw writes nothing of such an inner transaction (sync
 * transaction.ex tx_mutations of a ga_meta_tx: `:aega_call.return_type(call)` must be `:ok`). Pure.
 */
import { isJsonObject, type Json } from './json.ts';
import { innerTx } from './tx-fields.ts';

type TxObject = { [key: string]: Json };

/**
 * effectiveTxs is the transaction, then each one it wraps (GAMetaTx, PayingForTx) that took effect: the chain ends at
 * a GAMetaTx whose GA call `info` (the transaction's info: `ga_info`, or a PayingForTx's `call_info`) says failed.
 * Without an info (not asked, or garbage-collected) every one is taken as done, as nothing tells otherwise.
 */
export function effectiveTxs(tx: TxObject, info: TxObject | undefined): TxObject[] {
  const chain: TxObject[] = [];
  let at: Json | undefined = info;
  for (let own: TxObject | undefined = tx; own !== undefined; own = innerTx(own)) {
    chain.push(own);
    // a PayingForTx's info is the one of the transaction it pays for: the same level of the info
    if (own.type !== 'GAMetaTx') continue;
    const call: Json | undefined = isJsonObject(at)
      ? isJsonObject(at.ga_info)
        ? at.ga_info
        : at.call_info
      : undefined;
    if (isJsonObject(call) && call.return_type === 'error') break;
    at = isJsonObject(call) ? call.inner_object : undefined;
  }
  return chain;
}

/**
 * failedInner is the transaction a GAMetaTx of `tx`'s chain wraps that failed, undone by the node with all it wraps
 * (effectiveTxs with the same `info`); undefined when every level took effect.
 */
export function failedInner(tx: TxObject, info: TxObject | undefined): TxObject | undefined {
  return innerTx(effectiveTxs(tx, info).at(-1)!);
}

/**
 * listedTx is `tx` as far as `depth` levels took effect (effectiveTxs' length): the wrapper at the last of them keeps
 * its fields but no longer wraps a transaction, so the ids that failed one names are not read from it. A transaction
 * all of whose levels took effect is `tx` itself.
 */
export function listedTx(tx: TxObject, depth: number): TxObject {
  const inner = innerTx(tx);
  if (inner === undefined) return tx;
  const rest = depth <= 1 ? null : listedTx(inner, depth - 1);
  return rest === inner ? tx : { ...tx, tx: { ...(tx.tx as TxObject), tx: rest } };
}
