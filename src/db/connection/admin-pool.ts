/** @module The one connection of the admin commands (`mdw keys`, `mdw webhooks`), and their refusal of a bare schema. */
import { AppError, ErrorCode } from '../../base/errors.ts';
import type { Logger } from '../../base/log.ts';
import type { Config } from '../../config/middleware.ts';
import { createWritePool, type Pool } from './pool.ts';

/**
 * withAdminPool runs `fn` with one connection to the schema DATABASE_SCHEMA names, for `mdw keys` and `mdw webhooks`;
 * a schema not migrated yet is a refusal saying so.
 */
export async function withAdminPool<T>(cfg: Config, log: Logger, fn: (pool: Pool) => Promise<T>): Promise<T> {
  const pool = createWritePool(cfg, 'mdw-admin', log, 1);
  try {
    return await fn(pool);
  } catch (err) {
    // 42P01: the schema has no api_keys (or webhooks) yet
    if ((err as { code?: string }).code === '42P01')
      throw new AppError(
        ErrorCode.CONFIG_INVALID,
        500,
        `schema ${cfg.databaseSchema} has no API keys or webhooks tables: run \`mdw migrate\` (or the populator) first`,
      );
    throw err;
  } finally {
    await pool.end();
  }
}
