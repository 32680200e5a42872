/** @module The API keys (migration 1120): made and revoked by `mdw keys` or a keys file, read by every server. */
import type { Queryable } from '../pool.ts';

/** StoredKey is a key as the servers know it: never the key itself, only its SHA-256. */
export interface StoredKey {
  readonly id: string;
  readonly keySha256: Buffer;
  readonly name: string;
  readonly tier: string;
  readonly source: 'cli' | 'file';
  readonly createdAt: Date;
  readonly revokedAt: Date | null;
  readonly changedAt: Date;
}

/** NewKey is a key to store: its id, hash, name and tier. */
export interface NewKey {
  readonly id: string;
  readonly keySha256: Buffer;
  readonly name: string;
  readonly tier: string;
}

const COLUMNS = `id, key_sha256 AS "keySha256", name, tier, source, created_at AS "createdAt",
  revoked_at AS "revokedAt", changed_at AS "changedAt"`;

/** insertKey stores a key made by `mdw keys create`. */
export async function insertKey(db: Queryable, key: NewKey): Promise<StoredKey> {
  const { rows } = await db.query<StoredKey>(
    `INSERT INTO api_keys (id, key_sha256, name, tier, source) VALUES ($1, $2, $3, $4, 'cli') RETURNING ${COLUMNS}`,
    [key.id, key.keySha256, key.name, key.tier],
  );
  return rows[0]!;
}

/** listKeys is every key, revoked ones included, oldest first. */
export async function listKeys(db: Queryable): Promise<StoredKey[]> {
  const { rows } = await db.query<StoredKey>(`SELECT ${COLUMNS} FROM api_keys ORDER BY created_at, id`);
  return rows;
}

/**
 * keysChangedSince is every key changed at or after `since` (all of them without it), with the database's clock
 * reading: the next read asks from there. A change committed later with an earlier time is read again next time, since
 * the read reaches back a margin before the reading (KeyRing).
 */
export async function keysChangedSince(
  db: Queryable,
  since: Date | undefined,
): Promise<{ keys: StoredKey[]; readAt: Date }> {
  const { rows } = await db.query<StoredKey & { readAt: Date }>(
    `SELECT ${COLUMNS}, now() AS "readAt" FROM api_keys WHERE $1::timestamptz IS NULL OR changed_at >= $1
     UNION ALL SELECT NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, now()`,
    [since ?? null],
  );
  const readAt = rows.at(-1)!.readAt;
  return { keys: rows.slice(0, -1), readAt };
}

/** revokeKey revokes a key by id; false when there is no such key or it was revoked already. */
export async function revokeKey(db: Queryable, id: string): Promise<boolean> {
  const { rowCount } = await db.query(
    'UPDATE api_keys SET revoked_at = now(), changed_at = now() WHERE id = $1 AND revoked_at IS NULL',
    [id],
  );
  return (rowCount ?? 0) > 0;
}

/**
 * syncFileKeys makes the keys of a keys file what the table holds of source 'file': new ones are stored, a changed
 * name or tier is updated, a key back in the file is valid again, and a file key no longer listed is revoked. Keys of
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
     )
     UPDATE api_keys SET revoked_at = now(), changed_at = now()
     WHERE source = 'file' AND revoked_at IS NULL AND id <> ALL($1::text[])`,
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
