/**
 * @module The webhooks API's writes (`/mdw/v3/webhooks`, docs/webhooks.md) and `mdw webhooks`': a hook created with
 * its match keys, changed, its secret rotated, disabled, and deleted with its deliveries.
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
    await insertMatchKeys(db, hook.id, hook.keys);
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

/** insertMatchKeys writes a hook's filters' match keys, in their order. */
async function insertMatchKeys(db: Queryable, id: string, keys: NewWebhook['keys']): Promise<void> {
  await db.query(
    `INSERT INTO webhook_match_keys
       (webhook_id, filter_idx, id_key, tx_types, fields_re, log_contract, log_topic, log_account, log_account_topics,
        log_delivery)
     SELECT $1, i - 1, k, CASE WHEN t = '' THEN NULL ELSE string_to_array(t, ',')::smallint[] END, f, lc, lt, la,
            CASE WHEN lat = '' THEN NULL ELSE string_to_array(lat, ',')::smallint[] END, ld
       FROM unnest($2::bytea[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[])
            WITH ORDINALITY AS u (k, t, f, lc, lt, la, lat, ld, i)`,
    [
      id,
      keys.map((k) => k.idKey),
      keys.map((k) => k.txTypes?.join(',') ?? ''),
      keys.map((k) => k.fieldsRe),
      keys.map((k) => k.logContract),
      keys.map((k) => k.logTopic),
      keys.map((k) => k.logAccount),
      keys.map((k) => k.logAccountTopics?.join(',') ?? ''),
      keys.map((k) => k.logDelivery),
    ],
  );
}

/** WebhookChange is what a PATCH changes (an absent field stays); `filters` comes with its match keys. */
export interface WebhookChange {
  readonly url?: string;
  readonly filters?: { readonly given: unknown; readonly keys: NewWebhook['keys'] };
  readonly confirmations?: number;
  /** true: enabled, due now; a text: disabled with that reason */
  readonly enabled?: true | string;
}

/**
 * updateWebhook changes one owner's hook; false when there is none. New filters replace the match keys from the next
 * batch the populator writes; deliveries already written stay. Enabling a disabled hook makes it due at once (the populator wrote it nothing while it was disabled: `replay` writes
 * those heights).
 */
export function updateWebhook(pool: Pool, id: string, owner: string | null, change: WebhookChange): Promise<boolean> {
  return withTransaction(pool, async (db) => {
    const { rowCount } = await db.query(
      `UPDATE webhooks SET url = coalesce($3, url), filters = coalesce($4::jsonb, filters),
              confirmations = coalesce($5, confirmations),
              disabled_reason = CASE WHEN $6 THEN NULL ELSE coalesce($7, disabled_reason) END,
              next_attempt_at = CASE WHEN $6 AND disabled_reason IS NOT NULL THEN now() ELSE next_attempt_at END
        WHERE id = $1 AND owner IS NOT DISTINCT FROM $2`,
      [
        id,
        owner,
        change.url ?? null,
        change.filters === undefined ? null : JSON.stringify(change.filters.given),
        change.confirmations ?? null,
        change.enabled === true,
        typeof change.enabled === 'string' ? change.enabled : null,
      ],
    );
    if ((rowCount ?? 0) === 0) return false;
    if (change.filters !== undefined) {
      await db.query('DELETE FROM webhook_match_keys WHERE webhook_id = $1', [id]);
      await insertMatchKeys(db, id, change.filters.keys);
    }
    return true;
  });
}

/**
 * rotateSecret makes `secret` one owner's hook's secret; the one it replaces signs beside it for `keepMs` more (a
 * rotation within that time drops the oldest). Answers until when, undefined for no such hook.
 */
export async function rotateSecret(
  db: Queryable,
  id: string,
  owner: string | null,
  secret: string,
  keepMs: number,
): Promise<Date | undefined> {
  const { rows } = await db.query<{ until: Date }>(
    `UPDATE webhooks SET previous_secret = secret, secret = $3,
            previous_secret_until = now() + $4 * interval '1 millisecond'
      WHERE id = $1 AND owner IS NOT DISTINCT FROM $2 RETURNING previous_secret_until AS until`,
    [id, owner, secret, keepMs],
  );
  return rows[0]?.until;
}

/** endPreviousSecret stops the replaced secret of one owner's hook signing now; false when there is no such hook. */
export async function endPreviousSecret(db: Queryable, id: string, owner: string | null): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE webhooks SET previous_secret = NULL, previous_secret_until = NULL
      WHERE id = $1 AND owner IS NOT DISTINCT FROM $2`,
    [id, owner],
  );
  return (rowCount ?? 0) > 0;
}
