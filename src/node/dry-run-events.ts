/**
 * @module A micro block's transactions run again through the node's dry-run with `tx_events` (the request and the
 * reading of its answer; the populator's NodeClient.replay asks it). The node answers the events of the request's
 * last item only (aec_dry_run resets them before each item, node 6.8 on), so a request is the block's transactions
 * up to one contract call, and its events are that call's. Pure.
 */
import { isJsonObject, stringifyJson, type Json } from '../chain/json.ts';

/** replayBody is the request: the unsigned transactions `txs` (`tx_…`) in order, on top of block `top`. */
export function replayBody(top: string, txs: readonly string[]): string {
  return stringifyJson({ top, txs: txs.map((tx) => ({ tx })), tx_events: true });
}

/** TxEvent is one `internal_call_tx` event: the chain operation (`Chain.spend`…) and the transaction it amounts to. */
export interface TxEvent {
  readonly key: string;
  readonly info: { readonly [key: string]: Json };
}

/**
 * Replayed is the last item's outcome: whether it ran (`result` ok) and its internal calls, in the node's order; and
 * each item's `call_obj` (where the answer was read: undefined for an item that is no contract call or create, or did not run), which is the
 * contract transaction's call info as `GET /v3/transactions/{hash}/info` gives it (`call_info`: the same members, the
 * same values, on the state the item ran on).
 */
export interface Replayed {
  readonly ran: boolean;
  readonly events: readonly TxEvent[];
  readonly callObjects?: readonly ({ [key: string]: Json } | undefined)[];
}

/**
 * readReplay reads DryRunResults of `items` items: the last one's result and the `internal_call_tx` events (the
 * node's `channel` events are no internal calls). Throws for an answer of another shape.
 */
export function readReplay(answer: Json, items: number): Replayed {
  if (!isJsonObject(answer) || !Array.isArray(answer.results) || answer.results.length !== items)
    throw new Error(`dry-run sent no results for its ${items} transactions`);
  const last = answer.results.at(-1);
  const ran = isJsonObject(last) && last.result === 'ok';
  const events = Array.isArray(answer.tx_events) ? answer.tx_events : [];
  return {
    ran,
    callObjects: answer.results.map((r) => (isJsonObject(r) && isJsonObject(r.call_obj) ? r.call_obj : undefined)),
    events: events.flatMap((e): TxEvent[] =>
      isJsonObject(e) && e.kind === 'internal_call_tx' && typeof e.key === 'string' && isJsonObject(e.info)
        ? [{ key: e.key, info: e.info }]
        : [],
    ),
  };
}
