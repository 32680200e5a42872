/**
 * @module The webhooks API's writes (`/mdw/v3/webhooks`, docs/webhooks.md): a hook created with its match keys, and
 * deleted with its deliveries.
 */
import type { Pool, Queryable } from '../connection/pool.ts';
import { withTransaction } from '../connection/pool.ts';
import type { NewWebhook } from '../queries/webhooks.ts';

/** createWebhook writes a hook and its match keys; its deliveries start after the stored top, whose height it returns. */
export function createWebhook(pool: Pool, hook: NewWebhook): Promise<number> {
  return withTransaction(pool, async (db) => {
    const { rows } = await db.query<{ height: number }>(
      `INSERT INTO webhooks (id, owner, url, filters, confirmations, secret, created_height, reached_schema)
       SELECT $1, $2, $3, $4, $5, $6, coalesce(max(height), -1), current_schema() FROM key_blocks
       RETURNING created_height AS height`,
      [hook.id, hook.owner, hook.url, JSON.stringify(hook.filters), hook.confirmations, hook.secret],
    );
    await db.query(
      `INSERT INTO webhook_match_keys
         (webhook_id, filter_idx, id_key, tx_types, fields_re, log_contract, log_topic, log_account, log_account_topics,
          log_delivery)
       SELECT $1, i - 1, k, CASE WHEN t = '' THEN NULL ELSE string_to_array(t, ',')::smallint[] END, f, lc, lt, la,
              CASE WHEN lat = '' THEN NULL ELSE string_to_array(lat, ',')::smallint[] END, ld
         FROM unnest($2::bytea[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[])
              WITH ORDINALITY AS u (k, t, f, lc, lt, la, lat, ld, i)`,
      [
        hook.id,
        hook.keys.map((k) => k.idKey),
        hook.keys.map((k) => k.txTypes?.join(',') ?? ''),
        hook.keys.map((k) => k.fieldsRe),
        hook.keys.map((k) => k.logContract),
        hook.keys.map((k) => k.logTopic),
        hook.keys.map((k) => k.logAccount),
        hook.keys.map((k) => k.logAccountTopics?.join(',') ?? ''),
        hook.keys.map((k) => k.logDelivery),
      ],
    );
    return rows[0]!.height;
  });
}

/** deleteWebhook deletes one hook of an owner with its deliveries; false when there was none. */
export async function deleteWebhook(db: Queryable, id: string, owner: string | null): Promise<boolean> {
  const { rowCount } = await db.query('DELETE FROM webhooks WHERE id = $1 AND owner IS NOT DISTINCT FROM $2', [
    id,
    owner,
  ]);
  return (rowCount ?? 0) > 0;
}
