/** @module The API keys (migration 1120) as every server reads them; writes/api-keys.ts makes, revokes and counts them. */
import type { Queryable } from '../connection/pool.ts';

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

/** KEY_COLUMNS are a key's columns as StoredKey names them. */
export const KEY_COLUMNS = `id, key_sha256 AS "keySha256", name, tier, source, created_at AS "createdAt",
  revoked_at AS "revokedAt", changed_at AS "changedAt"`;

/** listKeys is every key, revoked ones included, oldest first. */
export async function listKeys(db: Queryable): Promise<StoredKey[]> {
  const { rows } = await db.query<StoredKey>(`SELECT ${KEY_COLUMNS} FROM api_keys ORDER BY created_at, id`);
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
    `SELECT ${KEY_COLUMNS}, now() AS "readAt" FROM api_keys WHERE $1::timestamptz IS NULL OR changed_at >= $1
     UNION ALL SELECT NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, now()`,
    [since ?? null],
  );
  const readAt = rows.at(-1)!.readAt;
  return { keys: rows.slice(0, -1), readAt };
}
