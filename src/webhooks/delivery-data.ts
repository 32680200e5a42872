/**
 * @module A delivery's `data` (docs/webhooks.md, "Deliveries"), read when it is sent: a transaction's as
 * /mdw/v3/transactions/{hash} serves it, a log entry's as /mdw/v3/contracts/logs lists it.
 */
import { stringifyJson } from '../chain/json.ts';
import type { Queryable } from '../db/pool.ts';
import { logsPage } from '../db/queries/contracts.ts';
import { transactionsByHashes } from '../db/queries/transactions.ts';
import type { QueuedDelivery } from '../db/queries/webhook-queue.ts';
import { contractLogObject } from '../shapes/v3/render-contracts.ts';
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
  if (d.type !== 'contract_log' || d.logIdx === null) return undefined;
  const at = { height: d.height, microIndex: d.microIndex, txIndex: d.txIndex, logIdx: d.logIdx };
  const [log] = await logsPage(db, { first: d.height, last: d.height }, 'forward', at, 1);
  const same =
    log !== undefined &&
    log.microIndex === d.microIndex &&
    log.txIndex === d.txIndex &&
    log.logIdx === d.logIdx &&
    log.callTxHash === d.txHash;
  return same ? stringifyJson(contractLogObject(log)) : undefined;
}
