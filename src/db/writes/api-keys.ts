/**
 * @module The API keys' writes (migration 1120): keys made and revoked by `mdw keys` or a keys file, and the quota
 * counts and held things every server adds to and reads back in one statement.
 */
import type { Queryable } from '../connection/pool.ts';
import { KEY_COLUMNS, type NewKey, type StoredKey } from '../queries/api-keys.ts';

/** insertKey stores a key made by `mdw keys create`. */
export async function insertKey(db: Queryable, key: NewKey): Promise<StoredKey> {
  const { rows } = await db.query<StoredKey>(
    `INSERT INTO api_keys (id, key_sha256, name, tier, source) VALUES ($1, $2, $3, $4, 'cli') RETURNING ${KEY_COLUMNS}`,
    [key.id, key.keySha256, key.name, key.tier],
  );
  return rows[0]!;
}

/** The reason a revoked key's hooks are disabled with (the sender skips a disabled hook, and stops one it holds). */
const KEY_REVOKED = `'its API key ' || r.id || ' was revoked at ' || to_char(r.revoked_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')`;

/**
 * revokeKey revokes a key by id and disables its webhooks in the same statement (a hook its owner can no longer reach
 * must not go on delivering); undefined when there is no such key or it was revoked already, else the hooks disabled.
 */
export async function revokeKey(db: Queryable, id: string): Promise<number | undefined> {
  const { rows } = await db.query<{ revoked: number; hooks: number }>(
    `WITH r AS (
       UPDATE api_keys SET revoked_at = now(), changed_at = now() WHERE id = $1 AND revoked_at IS NULL
       RETURNING id, revoked_at
     ), hooks AS (
       UPDATE webhooks w SET disabled_reason = ${KEY_REVOKED} FROM r WHERE w.owner = r.id AND w.disabled_reason IS NULL
       RETURNING w.id
     )
     SELECT (SELECT count(*)::int FROM r) AS revoked, (SELECT count(*)::int FROM hooks) AS hooks`,
    [id],
  );
  return rows[0]!.revoked === 0 ? undefined : rows[0]!.hooks;
}

/**
 * syncFileKeys makes the keys of a keys file what the table holds of source 'file': new ones are stored, a changed
 * name or tier is updated, a key back in the file is valid again, and a file key no longer listed is revoked (its
 * hooks disabled, as revokeKey's; a key back in the file does not enable them again: their owner does). Keys of
 * `mdw keys create` are left alone. Every server runs it with the same file: the statements are idempotent.
 */
export async function syncFileKeys(db: Queryable, keys: readonly NewKey[]): Promise<void> {
  await db.query(
    `WITH listed AS (
       SELECT * FROM unnest($1::text[], $2::bytea[], $3::text[], $4::text[]) AS k(id, key_sha256, name, tier)
     ), upserted AS (
       INSERT INTO api_keys AS a (id, key_sha256, name, tier, source) SELECT id, key_sha256, name, tier, 'file' FROM listed
       ON CONFLICT (id) DO UPDATE SET name = excluded.name, tier = excluded.tier, revoked_at = NULL, changed_at = now()
       WHERE a.source = 'file' AND (a.name, a.tier) IS DISTINCT FROM (excluded.name, excluded.tier) OR a.revoked_at IS NOT NULL
     ), r AS (
       UPDATE api_keys SET revoked_at = now(), changed_at = now()
       WHERE source = 'file' AND revoked_at IS NULL AND id <> ALL($1::text[])
       RETURNING id, revoked_at
     )
     UPDATE webhooks w SET disabled_reason = ${KEY_REVOKED} FROM r WHERE w.owner = r.id AND w.disabled_reason IS NULL`,
    [keys.map((k) => k.id), keys.map((k) => k.keySha256), keys.map((k) => k.name), keys.map((k) => k.tier)],
  );
}

/** UsageDelta is what one server let in for a subject in one window since its last flush. */
export interface UsageDelta {
  readonly subject: string;
  readonly windowSeconds: number;
  readonly windowStart: number;
  readonly used: number;
}

/**
 * addUsage adds each delta to its window's count and answers the counts of `subjects` (the ones the server saw lately)
 * in the windows still running, every server's together, which the server holds until its next flush. One statement.
 */
export async function addUsage(
  db: Queryable,
  deltas: readonly UsageDelta[],
  subjects: readonly string[],
  nowSeconds: number,
): Promise<UsageDelta[]> {
  const { rows } = await db.query<{ subject: string; windowSeconds: number; windowStart: string; used: string }>(
    `WITH added AS (
       INSERT INTO api_quota_usage AS u (subject, window_seconds, window_start, used)
       SELECT * FROM unnest($1::text[], $2::int[], $3::bigint[], $4::bigint[])
       ON CONFLICT (subject, window_seconds, window_start) DO UPDATE SET used = u.used + excluded.used
       RETURNING subject, window_seconds, window_start, used
     )
     SELECT subject, window_seconds AS "windowSeconds", window_start::text AS "windowStart", used::text AS used
     FROM added
     UNION ALL
     SELECT subject, window_seconds, window_start::text, used::text FROM api_quota_usage u
     WHERE subject = ANY($6::text[]) AND window_start + window_seconds > $5
       AND NOT EXISTS (SELECT 1 FROM added a
                       WHERE (a.subject, a.window_seconds, a.window_start) = (u.subject, u.window_seconds, u.window_start))`,
    [
      deltas.map((d) => d.subject),
      deltas.map((d) => d.windowSeconds),
      deltas.map((d) => d.windowStart),
      deltas.map((d) => d.used),
      nowSeconds,
      subjects,
    ],
  );
  return rows.map((r) => ({
    subject: r.subject,
    windowSeconds: r.windowSeconds,
    windowStart: Number(r.windowStart),
    used: Number(r.used),
  }));
}

/** pruneUsage deletes the counts of windows that ended before `nowSeconds`, and what servers gone an hour held. */
export async function pruneUsage(db: Queryable, nowSeconds: number): Promise<void> {
  await db.query('DELETE FROM api_quota_usage WHERE window_start + window_seconds <= $1', [nowSeconds]);
  await db.query("DELETE FROM api_held WHERE seen_at < now() - interval '1 hour'");
}

/** Held is what a subject holds of a kind (websocket connections, subscriptions, exports). */
export interface Held {
  readonly subject: string;
  readonly kind: string;
  readonly held: number;
}

/**
 * syncHeld makes `server`'s rows what it holds now (`mine`, nonzero) and answers what every other server whose rows
 * are fresher than `freshSeconds` holds, summed per subject and kind. One statement.
 */
export async function syncHeld(
  db: Queryable,
  server: string,
  mine: readonly Held[],
  freshSeconds: number,
): Promise<Held[]> {
  const { rows } = await db.query<Held>(
    `WITH mine AS (
       SELECT * FROM unnest($2::text[], $3::text[], $4::int[]) AS m(subject, kind, held)
     ), gone AS (
       DELETE FROM api_held h WHERE h.server = $1
       AND NOT EXISTS (SELECT 1 FROM mine m WHERE (m.subject, m.kind) = (h.subject, h.kind))
     ), kept AS (
       INSERT INTO api_held (server, subject, kind, held) SELECT $1, subject, kind, held FROM mine
       ON CONFLICT (server, subject, kind) DO UPDATE SET held = excluded.held, seen_at = now()
     )
     SELECT subject, kind, sum(held)::int AS held FROM api_held
     WHERE server <> $1 AND seen_at > now() - make_interval(secs => $5)
     GROUP BY subject, kind`,
    [server, mine.map((h) => h.subject), mine.map((h) => h.kind), mine.map((h) => h.held), freshSeconds],
  );
  return rows;
}
