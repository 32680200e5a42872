/**
 * @module What `mdw keys` does: make a key (shown once, only its hash stored), list the keys, revoke one, in the schema
 * DATABASE_SCHEMA names. The servers learn of a change within API_KEYS_REFRESH_MS.
 */
import { AppError, ErrorCode } from '../../base/errors.ts';
import type { Logger } from '../../base/log.ts';
import type { Config } from '../../config/middleware.ts';
import { withAdminPool } from '../../db/connection/admin-pool.ts';
import { listKeys, type StoredKey } from '../../db/queries/api-keys.ts';
import { insertKey, revokeKey } from '../../db/writes/api-keys.ts';
import { loadTiers } from './api-access.ts';
import { keyIdOf, keySha256, newKey } from './key-text.ts';

/** CreatedKey is a new key with the one sight of its text. */
export interface CreatedKey {
  readonly id: string;
  readonly key: string;
  readonly name: string;
  readonly tier: string;
}

/** createKey makes a key of a configured tier (API_TIERS_FILE's, or the defaults). */
export async function createKey(cfg: Config, log: Logger, name: string, tier: string): Promise<CreatedKey> {
  const tiers = await loadTiers(cfg.apiKeys);
  if (!tiers.some((t) => t.name === tier))
    throw new AppError(
      ErrorCode.CONFIG_INVALID,
      500,
      `no tier ${JSON.stringify(tier)}: the tiers are ${tiers.map((t) => t.name).join(', ')}`,
    );
  const key = newKey();
  const sha256 = keySha256(key);
  const stored = await withAdminPool(cfg, log, (pool) =>
    insertKey(pool, { id: keyIdOf(sha256), keySha256: sha256, name, tier }),
  );
  return { id: stored.id, key, name: stored.name, tier: stored.tier };
}

/** keyList is every key of the schema, revoked ones included. */
export function keyList(cfg: Config, log: Logger): Promise<StoredKey[]> {
  return withAdminPool(cfg, log, listKeys);
}

/** revoke revokes a key by id and disables its webhooks: how many; undefined when no such key is in force. */
export function revoke(cfg: Config, log: Logger, id: string): Promise<number | undefined> {
  return withAdminPool(cfg, log, (pool) => revokeKey(pool, id));
}

/** keyLine is one key in `mdw keys list`: id, tier, state, source, created, name. */
export function keyLine(k: StoredKey): string {
  const state = k.revokedAt ? `revoked ${k.revokedAt.toISOString()}` : 'active';
  return [k.id, k.tier, state, k.source, k.createdAt.toISOString(), k.name].join('\t');
}
