/**
 * @module The webhooks' deliveries as the populator writes them, in the batch transaction of their blocks
 * (docs/webhooks.md): the rows of the events each hook's filters match, and, when a fork or a reload drops rows the
 * sender had already tried to deliver, one `reorg` row per hook naming them. Rows are keyed by height (migration 1130),
 * so a rollback takes the undelivered ones with their blocks and nothing is invented.
 */
import type { Queryable } from '../connection/pool.ts';

/**
 * What the deletes of a fork or a reload are about to drop, kept to settle once the batch wrote its blocks: the micro
 * blocks stored there and every delivery row of those heights.
 */
export interface DroppedDeliveries {
  /** the lowest height dropped: a reorg row goes there, before the new chain's events */
  readonly from: number;
  /** the micro blocks stored at those heights: written again, their rows come back as they were, and no others */
  readonly blocks: readonly string[];
  readonly rows: readonly StashedRow[];
}

/** A delivery row as it was, every column but its creation time. */
interface StashedRow {
  readonly webhook_id: string;
  readonly delivery_id: string;
  readonly type: string;
  readonly height: number;
  readonly rank: number;
  readonly micro_index: number;
  readonly tx_index: number;
  readonly log_idx: number | null;
  readonly seq: string;
  readonly block_hash: string | null;
  readonly tx_hash: string | null;
  readonly invalidated: string[] | null;
  readonly status: string;
  readonly attempts: number;
  readonly last_error: string | null;
  readonly last_attempt_at: Date | null;
  readonly sent_at: Date | null;
}

const STASHED_COLUMNS = [
  'webhook_id',
  'delivery_id',
  'type',
  'height',
  'rank',
  'micro_index',
  'tx_index',
  'log_idx',
  'seq',
  'block_hash',
  'tx_hash',
  'invalidated',
  'status',
  'attempts',
  'last_error',
  'last_attempt_at',
  'sent_at',
] as const;

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
     AND (k.fields_re IS NULL OR at.fields ~ k.fields_re)
     AND k.log_topic IS NULL`;

/**
 * The columns of a delivery of a matched log entry (an event or AEX-9 filter), oldest entry first; both the batch's insert and
 * a replay's select them. A call's log lists its entries newest first: the oldest is index 0, as ae_mdw numbers them.
 */
const MATCHED_LOGS = `
  SELECT DISTINCT ON (k.webhook_id, c.height, c.micro_index, c.tx_index, l.log_idx)
         k.webhook_id, md5(k.webhook_id || '/' || mb.hash || '/' || c.tx_hash || '/' || l.log_idx)::uuid::text,
         k.log_delivery, c.height, 1, c.micro_index, c.tx_index, l.log_idx, mb.hash, c.tx_hash
    FROM contract_calls c
   CROSS JOIN LATERAL (SELECT e.entry, jsonb_array_length(c.call_info->'log') - e.ord::int AS log_idx
                         FROM jsonb_array_elements(c.call_info->'log') WITH ORDINALITY AS e (entry, ord)) l
    JOIN webhook_match_keys k ON k.log_contract = l.entry->>'address' AND k.log_topic = l.entry->'topics'->>0
    JOIN webhooks w ON w.id = k.webhook_id AND w.disabled_reason IS NULL
    JOIN micro_blocks mb ON mb.height = c.height AND mb.micro_index = c.micro_index
   WHERE c.height BETWEEN $1 AND $2 AND call_has_log(c.call_info)
     AND (k.log_account IS NULL
          OR EXISTS (SELECT 1 FROM unnest(k.log_account_topics) p WHERE l.entry->'topics'->>p::int = k.log_account))`;

const INSERT_LOGS = `INSERT INTO webhook_deliveries
  (webhook_id, delivery_id, type, height, rank, micro_index, tx_index, log_idx, block_hash, tx_hash)`;

// one delivery of an entry however many of a hook's filters match it: the first filter's type
const ORDER_LOGS = 'ORDER BY k.webhook_id, c.height, c.micro_index, c.tx_index, l.log_idx, k.filter_idx';

const INSERT = `INSERT INTO webhook_deliveries
  (webhook_id, delivery_id, type, height, rank, micro_index, tx_index, block_hash, tx_hash)`;

const ORDER = 'ORDER BY k.webhook_id, at.height, at.micro_index, at.tx_index';

/**
 * The batch writes a hook's deliveries from where its last sent one was, when another generation sent it (a
 * blue/green reload's new generation, migration 1133): nothing below that height, which the other one delivered.
 */
const RESUMED = (height: string) =>
  `AND (w.reached_schema = current_schema() OR ${height} >= coalesce(w.reached[1], w.created_height + 1))`;

/** hasWebhooks is false while no hook watches anything: the batch then writes no delivery and asks nothing more. */
export async function hasWebhooks(db: Queryable): Promise<boolean> {
  const { rows } = await db.query<{ any: boolean }>({
    name: 'mdw_webhooks_any',
    text: 'SELECT EXISTS (SELECT 1 FROM webhook_match_keys) AS any',
  });
  return rows[0]?.any ?? false;
}

/**
 * writeDeliveries writes the deliveries of heights from..to for every enabled hook, in each hook's order, except those
 * of `stored`, micro blocks the batch wrote again (a reload, a fork that kept them): theirs come back as they were
 * (settleDropped), so a hook created since gets none of them.
 */
export async function writeDeliveries(
  db: Queryable,
  from: number,
  to: number,
  stored: readonly string[] = [],
): Promise<number> {
  const { rowCount } = await db.query({
    name: 'mdw_webhook_deliveries_write',
    text: `${INSERT} ${MATCHED} AND mb.hash <> ALL ($3::text[]) ${RESUMED('at.height')} ${ORDER} ON CONFLICT DO NOTHING`,
    values: [from, to, stored],
  });
  const logs = await db.query({
    name: 'mdw_webhook_log_deliveries_write',
    text: `${INSERT_LOGS} ${MATCHED_LOGS} AND mb.hash <> ALL ($3::text[]) ${RESUMED('c.height')} ${ORDER_LOGS}
           ON CONFLICT DO NOTHING`,
    values: [from, to, stored],
  });
  return (rowCount ?? 0) + (logs.rowCount ?? 0);
}

/**
 * replayDeliveries (`POST /webhooks/{id}/replay`) writes one hook's deliveries of heights from..to again, those it
 * had as pending again (same ids, their attempts counted from zero), and lets the sender try the hook at once (a
 * disabled hook is enabled again); what another generation had sent is no longer skipped.
 */
export async function replayDeliveries(db: Queryable, webhookId: string, from: number, to: number): Promise<number> {
  await db.query(
    `UPDATE webhooks SET next_attempt_at = now(), disabled_reason = NULL, reached = NULL, reached_schema = current_schema()
      WHERE id = $1`,
    [webhookId],
  );
  const again = `ON CONFLICT (webhook_id, delivery_id) DO UPDATE
        SET status = 'pending', attempts = 0, last_error = NULL, last_attempt_at = NULL, sent_at = NULL`;
  const txs = await db.query(`${INSERT} ${MATCHED} AND k.webhook_id = $3 ${ORDER} ${again}`, [from, to, webhookId]);
  const logs = await db.query(`${INSERT_LOGS} ${MATCHED_LOGS} AND k.webhook_id = $3 ${ORDER_LOGS} ${again}`, [
    from,
    to,
    webhookId,
  ]);
  return (txs.rowCount ?? 0) + (logs.rowCount ?? 0);
}

/**
 * droppedDeliveries reads, before a fork's or a reload's deletes, the micro blocks stored at the heights about to go
 * and every delivery row there; undefined when there is no row.
 */
export async function droppedDeliveries(
  db: Queryable,
  scope: { readonly from: number } | readonly number[],
): Promise<DroppedDeliveries | undefined> {
  const [where, value] = 'from' in scope ? ['height >= $1', scope.from] : ['height = ANY ($1::int[])', scope];
  const { rows } = await db.query<StashedRow>(
    `SELECT ${STASHED_COLUMNS.join(', ')} FROM webhook_deliveries WHERE ${where}`,
    [value],
  );
  if (rows.length === 0) return undefined;
  const blocks = await db.query<{ hash: string }>(`SELECT hash FROM micro_blocks WHERE ${where}`, [value]);
  return {
    from: 'from' in scope ? scope.from : Math.min(...scope),
    blocks: blocks.rows.map((b) => b.hash),
    rows,
  };
}

/**
 * settleDropped runs after the batch wrote its deliveries: the rows of micro blocks written again, and the reorg rows,
 * come back as they were (their place in the order, what the sender did with them); every other row the sender had
 * tried is named, in one `reorg` row per hook at the lowest height dropped; the others go with their blocks.
 */
export async function settleDropped(db: Queryable, dropped: DroppedDeliveries): Promise<number> {
  const columns = STASHED_COLUMNS.join(', ');
  const types = [
    'text',
    'text',
    'text',
    'int',
    'smallint',
    'int',
    'int',
    'int',
    'bigint',
    'text',
    'text',
    'text',
    'text',
    'int',
    'text',
    'timestamptz',
    'timestamptz',
  ];
  const { rows: back } = await db.query<{ webhook_id: string; delivery_id: string }>(
    `INSERT INTO webhook_deliveries (${columns})
     SELECT ${STASHED_COLUMNS.map((c) => (c === 'invalidated' ? "string_to_array(s.invalidated, ',')" : `s.${c}`)).join(', ')}
       FROM unnest(${types.map((t, i) => `$${i + 1}::${t}[]`).join(', ')}) AS s (${columns})
      WHERE (s.type = 'reorg' OR EXISTS (SELECT 1 FROM micro_blocks m WHERE m.hash = s.block_hash))
        AND EXISTS (SELECT 1 FROM webhooks w WHERE w.id = s.webhook_id)
     ON CONFLICT DO NOTHING
     RETURNING webhook_id, delivery_id`,
    STASHED_COLUMNS.map((c) =>
      dropped.rows.map((r) => (c === 'invalidated' ? (r.invalidated?.join(',') ?? null) : r[c])),
    ),
  );
  const kept = new Set(back.map((r) => `${r.webhook_id}/${r.delivery_id}`));
  const invalidated = new Map<string, string[]>();
  for (const r of dropped.rows)
    if (r.attempts > 0 && r.type !== 'reorg' && !kept.has(`${r.webhook_id}/${r.delivery_id}`))
      invalidated.set(r.webhook_id, [...(invalidated.get(r.webhook_id) ?? []), r.delivery_id]);
  if (invalidated.size === 0) return 0;
  const hooks = [...invalidated];
  const { rowCount } = await db.query(
    `INSERT INTO webhook_deliveries (webhook_id, delivery_id, type, height, rank, micro_index, tx_index, invalidated)
     SELECT r.webhook_id, md5(r.webhook_id || '/reorg/' || $4 || '/' || r.ids)::uuid::text, 'reorg', $3, 0, 0, 0,
            string_to_array(r.ids, ',')
       FROM unnest($1::text[], $2::text[]) AS r (webhook_id, ids)
       JOIN webhooks w ON w.id = r.webhook_id
     ON CONFLICT DO NOTHING`,
    [hooks.map(([hook]) => hook), hooks.map(([, ids]) => ids.join(',')), dropped.from, String(dropped.from)],
  );
  return rowCount ?? 0;
}
