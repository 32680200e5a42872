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
  /** why its last attempt failed (null: none failed, or it was sent) */
  readonly lastError: string | null;
}

/** ClaimedHook is a hook a sender holds until it releases it or its lease runs out. */
export interface ClaimedHook {
  readonly id: string;
  readonly url: string;
  readonly secret: string;
  /** the secret a rotation replaced, while it still signs beside `secret` (null: none) */
  readonly previousSecret: string | null;
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
           RETURNING w.id, w.url, w.secret,
                     CASE WHEN w.previous_secret_until > now() THEN w.previous_secret END AS "previousSecret",
                     w.confirmations, w.reached, w.reached_schema AS "reachedSchema"`,
    values: [owner, leaseMs, n],
  });
  return rows;
}

/** NextDelivery is a hook's first undelivered row in its order, with the stored top when it was read. */
export interface NextDelivery {
  readonly delivery: QueuedDelivery;
  readonly top: number;
  readonly createdAt: Date;
}

/**
 * nextDeliveries reads each hook's first undelivered row in its order, and the stored top, in one statement; answers
 * in the order of `webhookIds`, undefined for a hook with none waiting.
 */
export async function nextDeliveries(
  db: Queryable,
  webhookIds: readonly string[],
): Promise<(NextDelivery | undefined)[]> {
  const { rows } = await db.query<QueuedDelivery & { top: number; createdAt: Date }>({
    name: 'mdw_webhook_next',
    text: `SELECT d.webhook_id AS "webhookId", d.delivery_id AS "deliveryId", d.type, d.height, d.rank,
                  d.micro_index AS "microIndex", d.tx_index AS "txIndex", d.log_idx AS "logIdx", d.block_hash AS "blockHash", d.tx_hash AS "txHash", d.invalidated,
                  d.attempts, d.last_error AS "lastError", d.created_at AS "createdAt", top.height AS top
             FROM unnest($1::text[]) AS h (id)
             CROSS JOIN (SELECT coalesce(max(height), -1) AS height FROM key_blocks) top
             CROSS JOIN LATERAL (
               SELECT * FROM webhook_deliveries d
                WHERE d.webhook_id = h.id AND d.status = 'pending'
                ORDER BY d.height, d.rank, d.micro_index, d.tx_index, d.seq LIMIT 1) d`,
    values: [webhookIds],
  });
  const byHook = new Map(
    rows.map(({ top, createdAt, ...delivery }) => [delivery.webhookId, { delivery, top, createdAt }] as const),
  );
  return webhookIds.map((id) => byHook.get(id));
}

/** An attempt of a held hook's delivery. */
export interface AttemptOf {
  readonly id: string;
  readonly deliveryId: string;
}

/**
 * beginAttempts counts an attempt of each delivery before it is sent (a reorg names every row that was tried) and
 * renews the sender's lease of its hook, in one statement; per attempt, in their order: the attempts so far, `lost`
 * when the lease is no longer the sender's or the hook was disabled meanwhile (its key revoked, its owner or an
 * operator disabled it: nothing more is sent), `gone` when a fork took the row meanwhile.
 */
export async function beginAttempts(
  db: Queryable,
  attempts: readonly AttemptOf[],
  owner: string,
  leaseMs: number,
): Promise<(number | 'lost' | 'gone')[]> {
  const { rows } = await db.query<{ id: string; deliveryId: string; held: boolean; attempts: number | null }>({
    name: 'mdw_webhook_begin_attempts',
    text: `WITH asked AS (SELECT * FROM unnest($1::text[], $2::text[]) AS a (id, delivery_id)),
           lease AS (
             UPDATE webhooks w SET lease_until = now() + $4 * interval '1 millisecond'
               FROM (SELECT DISTINCT id FROM asked) a WHERE w.id = a.id AND w.lease_owner = $3 AND w.disabled_reason IS NULL
               RETURNING w.id),
           tried AS (
             UPDATE webhook_deliveries d SET attempts = attempts + 1, last_attempt_at = now()
               FROM asked JOIN lease ON lease.id = asked.id
              WHERE d.webhook_id = asked.id AND d.delivery_id = asked.delivery_id AND d.status = 'pending'
             RETURNING d.webhook_id AS id, d.delivery_id, d.attempts)
           SELECT asked.id, asked.delivery_id AS "deliveryId", lease.id IS NOT NULL AS held, tried.attempts
             FROM asked LEFT JOIN lease ON lease.id = asked.id
             LEFT JOIN tried ON tried.id = asked.id AND tried.delivery_id = asked.delivery_id`,
    values: [attempts.map((a) => a.id), attempts.map((a) => a.deliveryId), owner, leaseMs],
  });
  const answers = new Map(rows.map((r) => [`${r.id}/${r.deliveryId}`, r]));
  return attempts.map((a) => {
    const row = answers.get(`${a.id}/${a.deliveryId}`);
    if (!row?.held) return 'lost';
    return row.attempts ?? 'gone';
  });
}

/** A delivery answered 2xx, with its position as where its hook got to (sender.ts reachedPosition). */
export interface Delivered extends AttemptOf {
  readonly position: readonly number[];
}

/** markDelivered records 2xx answers, and each delivery's position as where its hook got to in this schema. */
export async function markDelivered(db: Queryable, sent: readonly Delivered[]): Promise<void> {
  await db.query({
    name: 'mdw_webhook_delivered',
    text: `WITH s AS (SELECT * FROM unnest($1::text[], $2::text[], $3::text[]) AS s (id, delivery_id, position)),
           d AS (UPDATE webhook_deliveries d SET status = 'sent', sent_at = now(), last_error = NULL
                   FROM s WHERE d.webhook_id = s.id AND d.delivery_id = s.delivery_id)
           UPDATE webhooks w SET reached = s.position::int[], reached_schema = current_schema() FROM s WHERE w.id = s.id`,
    values: [sent.map((s) => s.id), sent.map((s) => s.deliveryId), sent.map((s) => `{${s.position.join(',')}}`)],
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
 * with `disable`, the retries ran out: the hook is disabled with that reason. A hook disabled while the attempt was
 * under way (its key revoked, its owner or the operator) stays disabled with its reason.
 */
export async function markFailed(
  db: Queryable,
  failure: { webhookId: string; deliveryId: string; error: string; delayMs: number; disable?: string },
): Promise<void> {
  await db.query({
    name: 'mdw_webhook_failed',
    text: `WITH d AS (UPDATE webhook_deliveries SET last_error = $3, status = CASE WHEN $5::text IS NULL THEN status ELSE 'failed' END
                      WHERE webhook_id = $1 AND delivery_id = $2)
           UPDATE webhooks SET next_attempt_at = now() + $4 * interval '1 millisecond',
                  disabled_reason = coalesce(disabled_reason, $5),
                  lease_owner = NULL, lease_until = NULL
            WHERE id = $1`,
    values: [failure.webhookId, failure.deliveryId, failure.error, failure.delayMs, failure.disable ?? null],
  });
}

/** releaseHooks gives hooks back (nothing ready, or the sender stops). */
export async function releaseHooks(db: Queryable, webhookIds: readonly string[], owner: string): Promise<void> {
  await db.query({
    name: 'mdw_webhook_release',
    text: 'UPDATE webhooks SET lease_owner = NULL, lease_until = NULL WHERE id = ANY($1::text[]) AND lease_owner = $2',
    values: [webhookIds, owner],
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
