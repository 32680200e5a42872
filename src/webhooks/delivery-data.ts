/**
 * @module A delivery's `data` (docs/webhooks.md, "Deliveries"), read when it is sent: a transaction's as
 * /mdw/v3/transactions/{hash} serves it, a log entry's as /mdw/v3/contracts/logs lists it, an AEX-9 Transfer event's
 * as /mdw/v3/aex9/{id}/transfers lists it, an AEX-141 one's as /mdw/v3/aex141/{id}/transfers does (both read from the
 * entry itself: the tokens areas may be behind).
 */
import { encode } from '../chain/encoding.ts';
import { stringifyJson, type Json } from '../chain/json.ts';
import type { Queryable } from '../db/connection/pool.ts';
import { logsPage, type LogRow } from '../db/queries/contracts.ts';
import { transactionsByHashes } from '../db/queries/transactions.ts';
import type { QueuedDelivery } from '../db/writes/webhook-queue.ts';
import { transferObject as aex9TransferObject } from '../shapes/v3/render-aex9.ts';
import { transferObject as aex141TransferObject } from '../shapes/v3/render-aex141.ts';
import { contractLogObject, topicBytes } from '../shapes/v3/render-contracts.ts';
import { transactionJson } from '../shapes/v3/render-tx.ts';

/**
 * deliveryData is the JSON text of `d`'s data; undefined for a reorg, and for an event a fork took meanwhile (no such
 * transaction, or another block's entry at the log's place).
 */
export async function deliveryData(db: Queryable, d: QueuedDelivery): Promise<string | undefined> {
  if (d.txHash === null) return undefined;
  if (d.type === 'transaction') {
    const tx = (await transactionsByHashes(db, [d.txHash])).get(d.txHash);
    return tx === undefined ? undefined : transactionJson(tx);
  }
  if (d.logIdx === null) return undefined;
  const at = { height: d.height, microIndex: d.microIndex, txIndex: d.txIndex, logIdx: d.logIdx };
  const [log] = await logsPage(db, { first: d.height, last: d.height }, { walk: 'forward', from: at, n: 1 });
  const same =
    log !== undefined &&
    log.microIndex === d.microIndex &&
    log.txIndex === d.txIndex &&
    log.logIdx === d.logIdx &&
    log.callTxHash === d.txHash;
  if (!same) return undefined;
  if (d.type === 'aex9_transfer') return stringifyJson(aex9Transfer(log));
  return stringifyJson(d.type === 'aex141_transfer' ? aex141Transfer(log) : contractLogObject(log));
}

/**
 * transferOf reads a token's Transfer event's entry (topics: the event, the sender, the recipient, the amount or the
 * token id) with its place, as both standards' transfer rows hold it.
 */
function transferOf(log: LogRow) {
  const topics = (log.log.topics ?? []) as Json[];
  const account = (topic: Json | undefined): string => encode('ak', topicBytes(topic ?? 0));
  return {
    ...log,
    contractId: String(log.log.address),
    from: account(topics[1]),
    to: account(topics[2]),
    value: String(topics[3] ?? 0),
    txHash: log.callTxHash,
    microTime: log.blockTime,
  };
}

/** aex9Transfer is a Transfer event's entry as an Aex9Transfer. */
function aex9Transfer(log: LogRow): Record<string, Json> {
  const t = transferOf(log);
  return aex9TransferObject({ ...t, sender: t.from, recipient: t.to, amount: t.value }, false);
}

/** aex141Transfer is a Transfer event's entry as an Aex141Transfer. */
function aex141Transfer(log: LogRow): Record<string, Json> {
  const t = transferOf(log);
  return aex141TransferObject({ ...t, fromId: t.from, toId: t.to, tokenId: t.value });
}
