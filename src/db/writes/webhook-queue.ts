/**
 * @module The webhook sender's statements (src/webhooks/sender.ts): which sender holds which hook (a lease in the
 * hook's row, taken with FOR UPDATE SKIP LOCKED, so several senders share the hooks and never send one hook's rows
 * twice at once), each hook's next delivery in order, and what came of each attempt.
 */
import type { Queryable } from '../connection/pool.ts';

/** QueuedDelivery is a delivery row as the sender reads it. */
export interface QueuedDelivery {
  readonly webhookId: string;
  readonly deliveryId: string;
  readonly type: 'transaction' | 'contract_log' | 'aex9_transfer' | 'aex141_transfer' | 'reorg';
  readonly height: number;
  /** 0 for a reorg, which goes before the events of its height */
  readonly rank: number;
  readonly microIndex: number;
  readonly txIndex: number;
  /** a log delivery's entry in its call's log */
  readonly logIdx: number | null;
  readonly blockHash: string | null;
  readonly txHash: string | null;
  readonly invalidated: readonly string[] | null;
  readonly attempts: number;
}

/** ClaimedHook is a hook a sender holds until it releases it or its lease runs out. */
export interface ClaimedHook {
  readonly id: string;
  readonly url: string;
  readonly secret: string;
  readonly confirmations: number;
  /** the position of its last delivery sent (sender.ts reachedPosition), and the schema whose sender sent it */
  readonly reached: readonly number[] | null;
  readonly reachedSchema: string | null;
}

/**
 * claimHooks leases up to `n` hooks that are enabled, due, held by no live lease and have a delivery ready (a reorg, or
 * an event with its confirmations), the longest waiting first. It starts from the hooks with a row pending (the
 * pending rows' index), not from every hook: ten thousand hooks with nothing to send cost it nothing.
 */
export async function claimHooks(db: Queryable, owner: string, leaseMs: number, n: number): Promise<ClaimedHook[]> {
  const { rows } = await db.query<ClaimedHook>({
    name: 'mdw_webhooks_claim',
    text: `WITH top AS (SELECT coalesce(max(height), -1) AS height FROM key_blocks),
                waiting AS (SELECT DISTINCT webhook_id FROM webhook_deliveries WHERE status = 'pending'),
                due AS (
                  SELECT w.id FROM waiting JOIN webhooks w ON w.id = waiting.webhook_id, top
                   WHERE w.disabled_reason IS NULL AND w.next_attempt_at <= now()
                     AND (w.lease_until IS NULL OR w.lease_until < now())
                     AND EXISTS (SELECT 1 FROM webhook_deliveries d
                                  WHERE d.webhook_id = w.id AND d.status = 'pending'
                                    AND (d.type = 'reorg' OR d.height <= top.height - w.confirmations))
                   ORDER BY w.next_attempt_at LIMIT $3 FOR UPDATE OF w SKIP LOCKED)
           UPDATE webhooks w SET lease_owner = $1, lease_until = now() + $2 * interval '1 millisecond'
             FROM due WHERE w.id = due.id
           RETURNING w.id, w.url, w.secret, w.confirmations, w.reached, w.reached_schema AS "reachedSchema"`,
    values: [owner, leaseMs, n],
  });
  return rows;
}

/** nextDelivery reads a hook's first undelivered row in its order, and the stored top; undefined when none waits. */
export async function nextDelivery(
  db: Queryable,
  webhookId: string,
): Promise<{ delivery: QueuedDelivery; top: number; createdAt: Date } | undefined> {
  const { rows } = await db.query<QueuedDelivery & { top: number; createdAt: Date }>({
    name: 'mdw_webhook_next',
    text: `SELECT d.webhook_id AS "webhookId", d.delivery_id AS "deliveryId", d.type, d.height, d.rank,
                  d.micro_index AS "microIndex", d.tx_index AS "txIndex", d.log_idx AS "logIdx", d.block_hash AS "blockHash", d.tx_hash AS "txHash", d.invalidated,
                  d.attempts, d.created_at AS "createdAt",
                  (SELECT coalesce(max(height), -1) FROM key_blocks) AS top
             FROM webhook_deliveries d
            WHERE d.webhook_id = $1 AND d.status = 'pending'
            ORDER BY d.height, d.rank, d.micro_index, d.tx_index, d.seq LIMIT 1`,
    values: [webhookId],
  });
  const row = rows[0];
  if (row === undefined) return undefined;
  const { top, createdAt, ...delivery } = row;
  return { delivery, top, createdAt };
}

/**
 * beginAttempt counts an attempt of a delivery before it is sent (a reorg names every row that was tried) and renews
 * the sender's lease: `lost` when the lease is no longer the sender's, `gone` when a fork took the row meanwhile.
 */
export async function beginAttempt(
  db: Queryable,
  hook: { readonly id: string; readonly deliveryId: string },
  owner: string,
  leaseMs: number,
): Promise<number | 'lost' | 'gone'> {
  const { rows } = await db.query<{ held: boolean; attempts: number | null }>({
    name: 'mdw_webhook_begin_attempt',
    text: `WITH lease AS (
             UPDATE webhooks SET lease_until = now() + $4 * interval '1 millisecond'
              WHERE id = $1 AND lease_owner = $3 RETURNING id),
           tried AS (
             UPDATE webhook_deliveries d SET attempts = attempts + 1, last_attempt_at = now()
               FROM lease WHERE d.webhook_id = lease.id AND d.delivery_id = $2 AND d.status = 'pending'
             RETURNING d.attempts)
           SELECT EXISTS (SELECT 1 FROM lease) AS held, (SELECT attempts FROM tried) AS attempts`,
    values: [hook.id, hook.deliveryId, owner, leaseMs],
  });
  const row = rows[0];
  if (!row?.held) return 'lost';
  return row.attempts ?? 'gone';
}

/** markDelivered records a 2xx answer, and the delivery's position as where its hook got to in this schema. */
export async function markDelivered(
  db: Queryable,
  webhookId: string,
  deliveryId: string,
  position: readonly number[],
): Promise<void> {
  await db.query({
    name: 'mdw_webhook_delivered',
    text: `WITH d AS (UPDATE webhook_deliveries SET status = 'sent', sent_at = now(), last_error = NULL
                      WHERE webhook_id = $1 AND delivery_id = $2)
           UPDATE webhooks SET reached = $3::int[], reached_schema = current_schema() WHERE id = $1`,
    values: [webhookId, deliveryId, position],
  });
}

/**
 * markSentElsewhere records a delivery that another generation's sender sent (its hook had got past it there): sent,
 * with no attempt of this schema's.
 */
export async function markSentElsewhere(db: Queryable, webhookId: string, deliveryId: string): Promise<void> {
  await db.query({
    name: 'mdw_webhook_sent_elsewhere',
    text: `UPDATE webhook_deliveries SET status = 'sent', sent_at = now() WHERE webhook_id = $1 AND delivery_id = $2`,
    values: [webhookId, deliveryId],
  });
}

/**
 * markFailed records a failed attempt and holds the hook back `delayMs` (its rows wait in order behind this one);
 * with `disable`, the retries ran out: the hook is disabled with that reason.
 */
export async function markFailed(
  db: Queryable,
  failure: { webhookId: string; deliveryId: string; error: string; delayMs: number; disable?: string },
): Promise<void> {
  await db.query({
    name: 'mdw_webhook_failed',
    text: `WITH d AS (UPDATE webhook_deliveries SET last_error = $3, status = CASE WHEN $5::text IS NULL THEN status ELSE 'failed' END
                      WHERE webhook_id = $1 AND delivery_id = $2)
           UPDATE webhooks SET next_attempt_at = now() + $4 * interval '1 millisecond', disabled_reason = $5,
                  lease_owner = NULL, lease_until = NULL
            WHERE id = $1`,
    values: [failure.webhookId, failure.deliveryId, failure.error, failure.delayMs, failure.disable ?? null],
  });
}

/** releaseHook gives a hook back (nothing ready, or the sender stops). */
export async function releaseHook(db: Queryable, webhookId: string, owner: string): Promise<void> {
  await db.query({
    name: 'mdw_webhook_release',
    text: 'UPDATE webhooks SET lease_owner = NULL, lease_until = NULL WHERE id = $1 AND lease_owner = $2',
    values: [webhookId, owner],
  });
}

/** queueDepth counts the deliveries waiting, of hooks not disabled. */
export async function queueDepth(db: Queryable): Promise<number> {
  const { rows } = await db.query<{ n: string }>({
    name: 'mdw_webhook_queue_depth',
    text: `SELECT count(*) AS n FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id
            WHERE d.status = 'pending' AND w.disabled_reason IS NULL`,
  });
  return Number(rows[0]?.n ?? 0);
}

/**
 * pruneDeliveries deletes up to `batch` deliveries that are done (sent, or failed with their hook disabled), the
 * oldest first, whose last attempt is older than `retentionMs` and whose height is more than `forkWindow` below the
 * top (a fork there names the delivered rows it drops in its reorg delivery); rows another sender is pruning are
 * skipped. Returns how many went.
 */
export async function pruneDeliveries(
  db: Queryable,
  limits: { readonly retentionMs: number; readonly forkWindow: number; readonly batch: number },
): Promise<number> {
  const { rowCount } = await db.query({
    name: 'mdw_webhook_prune',
    text: `WITH done AS (
             SELECT webhook_id, delivery_id FROM webhook_deliveries
              WHERE status <> 'pending'
                AND coalesce(sent_at, last_attempt_at) < now() - $1 * interval '1 millisecond'
                AND height <= (SELECT coalesce(max(height), -1) FROM key_blocks) - $2
              ORDER BY coalesce(sent_at, last_attempt_at) LIMIT $3 FOR UPDATE SKIP LOCKED)
           DELETE FROM webhook_deliveries d USING done
            WHERE d.webhook_id = done.webhook_id AND d.delivery_id = done.delivery_id`,
    values: [limits.retentionMs, limits.forkWindow, limits.batch],
  });
  return rowCount ?? 0;
}
