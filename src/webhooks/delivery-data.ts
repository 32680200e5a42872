/**
 * @module A delivery's `data` (docs/webhooks.md, "Deliveries"), read when it is sent: a transaction's as
 * /mdw/v3/transactions/{hash} serves it, a log entry's as /mdw/v3/contracts/logs lists it, an AEX-9 Transfer event's
 * as /mdw/v3/aex9/{id}/transfers lists it (read from the entry itself: the tokens area may be behind).
 */
import { encode } from '../chain/encoding.ts';
import { stringifyJson, type Json } from '../chain/json.ts';
import type { Queryable } from '../db/pool.ts';
import { logsPage, type LogRow } from '../db/queries/contracts.ts';
import { transactionsByHashes } from '../db/queries/transactions.ts';
import type { QueuedDelivery } from '../db/queries/webhook-queue.ts';
import { transferObject } from '../shapes/v3/render-aex9.ts';
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
  const [log] = await logsPage(db, { first: d.height, last: d.height }, 'forward', at, 1);
  const same =
    log !== undefined &&
    log.microIndex === d.microIndex &&
    log.txIndex === d.txIndex &&
    log.logIdx === d.logIdx &&
    log.callTxHash === d.txHash;
  if (!same) return undefined;
  return stringifyJson(d.type === 'aex9_transfer' ? aex9Transfer(log) : contractLogObject(log));
}

/** aex9Transfer is a Transfer event's entry (topics: the event, sender, recipient, amount) as an Aex9Transfer. */
function aex9Transfer(log: LogRow): Record<string, Json> {
  const topics = (log.log.topics ?? []) as Json[];
  const account = (topic: Json | undefined): string => encode('ak', topicBytes(topic ?? 0));
  return transferObject(
    {
      ...log,
      contractId: String(log.log.address),
      sender: account(topics[1]),
      recipient: account(topics[2]),
      amount: String(topics[3] ?? 0),
      txHash: log.callTxHash,
      microTime: log.blockTime,
    },
    false,
  );
}
