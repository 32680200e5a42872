/**
 * @module The webhooks' deliveries as the populator writes them, in the batch transaction of their blocks
 * (docs/webhooks.md): the rows of the events each hook's filters match, and, when a fork or a reload drops rows the
 * sender had already tried to deliver, one `reorg` row per hook naming them. Rows are keyed by height (migration 1130),
 * so a rollback takes the undelivered ones with their blocks and nothing is invented.
 */
import type { Queryable } from '../pool.ts';

/** What the deletes of a fork or a reload are about to drop that a receiver may have seen, kept to settle after. */
export interface DroppedDeliveries {
  /** the lowest height dropped: a reorg row goes there, before the new chain's events */
  readonly from: number;
  readonly tried: readonly TriedRow[];
  /** the ids named by reorg rows not yet sent, which a new reorg row names again */
  readonly unsentReorgs: readonly { readonly webhookId: string; readonly invalidated: readonly string[] }[];
}

interface TriedRow {
  readonly webhookId: string;
  readonly deliveryId: string;
  readonly status: string;
  readonly attempts: number;
  readonly lastError: string | null;
  readonly lastAttemptAt: Date | null;
  readonly sentAt: Date | null;
}

/** The columns of a delivery of a matched transaction; both the batch's insert and a replay's select them. */
const MATCHED = `
  SELECT DISTINCT ON (k.webhook_id, at.height, at.micro_index, at.tx_index)
         k.webhook_id, md5(k.webhook_id || '/' || mb.hash || '/' || t.hash)::uuid::text, 'transaction',
         at.height, 1, at.micro_index, at.tx_index, mb.hash, t.hash
    FROM account_transactions at
    JOIN account_ids a ON a.num = at.account
    JOIN webhook_match_keys k ON k.id_key = a.key
    JOIN webhooks w ON w.id = k.webhook_id AND w.disabled_reason IS NULL
    JOIN transactions t ON t.height = at.height AND t.micro_index = at.micro_index AND t.tx_index = at.tx_index
    JOIN micro_blocks mb ON mb.height = at.height AND mb.micro_index = at.micro_index
   WHERE at.height BETWEEN $1 AND $2
     AND (k.tx_types IS NULL OR at.tx_type = ANY (k.tx_types))
     AND (k.fields_re IS NULL OR at.fields ~ k.fields_re)`;

const INSERT = `INSERT INTO webhook_deliveries
  (webhook_id, delivery_id, type, height, rank, micro_index, tx_index, block_hash, tx_hash)`;

const ORDER = 'ORDER BY k.webhook_id, at.height, at.micro_index, at.tx_index';

/** hasWebhooks is false while no hook watches anything: the batch then writes no delivery and asks nothing more. */
export async function hasWebhooks(db: Queryable): Promise<boolean> {
  const { rows } = await db.query<{ any: boolean }>({
    name: 'mdw_webhooks_any',
    text: 'SELECT EXISTS (SELECT 1 FROM webhook_match_keys) AS any',
  });
  return rows[0]?.any ?? false;
}

/**
 * writeDeliveries writes the deliveries of heights from..to for every hook created below them, in each hook's order;
 * a row already there (the same event of the same block, a reload writing it again) stays as it is.
 */
export async function writeDeliveries(db: Queryable, from: number, to: number): Promise<number> {
  const { rowCount } = await db.query({
    name: 'mdw_webhook_deliveries_write',
    text: `${INSERT} ${MATCHED} AND w.created_height < at.height ${ORDER} ON CONFLICT DO NOTHING`,
    values: [from, to],
  });
  return rowCount ?? 0;
}

/**
 * replayDeliveries (`POST /webhooks/{id}/replay`) writes one hook's deliveries of heights from..to again, those it
 * had as pending again (same ids, their attempts counted from zero), and lets the sender try the hook at once (a
 * disabled hook is enabled again).
 */
export async function replayDeliveries(db: Queryable, webhookId: string, from: number, to: number): Promise<number> {
  await db.query(`UPDATE webhooks SET next_attempt_at = now(), disabled_reason = NULL WHERE id = $1`, [webhookId]);
  const { rowCount } = await db.query(
    `${INSERT} ${MATCHED} AND k.webhook_id = $3 ${ORDER}
     ON CONFLICT (webhook_id, delivery_id) DO UPDATE
        SET status = 'pending', attempts = 0, last_error = NULL, last_attempt_at = NULL, sent_at = NULL`,
    [from, to, webhookId],
  );
  return rowCount ?? 0;
}

/**
 * droppedDeliveries reads, before a fork's or a reload's deletes, the rows at the heights about to go that a receiver
 * may have seen (tried at least once) and the reorg rows not yet sent; undefined when there are none.
 */
export async function droppedDeliveries(
  db: Queryable,
  scope: { readonly from: number } | readonly number[],
): Promise<DroppedDeliveries | undefined> {
  const [where, value] = 'from' in scope ? ['height >= $1', scope.from] : ['height = ANY ($1::int[])', scope];
  const { rows } = await db.query<TriedRow & { type: string; invalidated: string[] | null; height: number }>(
    `SELECT webhook_id AS "webhookId", delivery_id AS "deliveryId", status, attempts, last_error AS "lastError",
            last_attempt_at AS "lastAttemptAt", sent_at AS "sentAt", type, invalidated, height
       FROM webhook_deliveries
      WHERE ${where} AND (attempts > 0 AND type <> 'reorg' OR type = 'reorg' AND status <> 'sent')
      ORDER BY webhook_id, height, rank, micro_index, tx_index, seq`,
    [value],
  );
  if (rows.length === 0) return undefined;
  const from = 'from' in scope ? scope.from : Math.min(...scope);
  return {
    from,
    tried: rows.filter((r) => r.type !== 'reorg'),
    unsentReorgs: rows
      .filter((r) => r.type === 'reorg')
      .map((r) => ({ webhookId: r.webhookId, invalidated: r.invalidated ?? [] })),
  };
}

/**
 * settleDropped runs after the batch wrote its deliveries: a tried row written again (the same event in the same
 * block: a reload that found the same blocks) keeps what the sender did with it; every other one is named, with the
 * ids of unsent reorg rows the deletes took, in one `reorg` row per hook at the lowest height dropped.
 */
export async function settleDropped(db: Queryable, dropped: DroppedDeliveries): Promise<number> {
  const t = dropped.tried;
  const { rows: kept } = await db.query<{ webhookId: string; deliveryId: string }>(
    `UPDATE webhook_deliveries d
        SET status = s.status, attempts = s.attempts, last_error = s.last_error,
            last_attempt_at = s.last_attempt_at, sent_at = s.sent_at
       FROM unnest($1::text[], $2::text[], $3::text[], $4::int[], $5::text[], $6::timestamptz[], $7::timestamptz[])
            AS s (webhook_id, delivery_id, status, attempts, last_error, last_attempt_at, sent_at)
      WHERE d.webhook_id = s.webhook_id AND d.delivery_id = s.delivery_id
      RETURNING d.webhook_id AS "webhookId", d.delivery_id AS "deliveryId"`,
    [
      t.map((r) => r.webhookId),
      t.map((r) => r.deliveryId),
      t.map((r) => r.status),
      t.map((r) => r.attempts),
      t.map((r) => r.lastError),
      t.map((r) => r.lastAttemptAt),
      t.map((r) => r.sentAt),
    ],
  );
  const back = new Set(kept.map((r) => `${r.webhookId}/${r.deliveryId}`));
  const invalidated = new Map<string, string[]>();
  const name = (webhookId: string, ids: readonly string[]): void => {
    const list = invalidated.get(webhookId) ?? [];
    invalidated.set(webhookId, [...list, ...ids]);
  };
  for (const r of dropped.unsentReorgs) name(r.webhookId, r.invalidated);
  for (const r of t) if (!back.has(`${r.webhookId}/${r.deliveryId}`)) name(r.webhookId, [r.deliveryId]);
  const hooks = [...invalidated].filter(([, ids]) => ids.length > 0);
  if (hooks.length === 0) return 0;
  const { rowCount } = await db.query(
    `INSERT INTO webhook_deliveries (webhook_id, delivery_id, type, height, rank, micro_index, tx_index, invalidated)
     SELECT r.webhook_id, md5(r.webhook_id || '/reorg/' || $3 || '/' || r.ids)::uuid::text, 'reorg', $3, 0, 0, 0,
            string_to_array(r.ids, ',')
       FROM unnest($1::text[], $2::text[]) AS r (webhook_id, ids)
       JOIN webhooks w ON w.id = r.webhook_id
     ON CONFLICT DO NOTHING`,
    [hooks.map(([hook]) => hook), hooks.map(([, ids]) => ids.join(',')), dropped.from],
  );
  return rowCount ?? 0;
}
