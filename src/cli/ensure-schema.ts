/** @module Roles that read the schema apply pending migrations first, as the seed asks of every start. */
import type { Config } from '../config/middleware.ts';
import type { Logger } from '../base/log.ts';

/**
 * ensureSchema migrates only when something is pending, so a server whose database user may not
 * run DDL starts fine against an up-to-date schema. Migrations take an advisory lock: servers and
 * a populator starting together never migrate twice. A database that is away is waited for.
 */
export async function ensureSchema(cfg: Config, log: Logger): Promise<void> {
  const { migrate, migrationStatus } = await import('../db/schema/migrator.ts');
  const { untilDatabaseAnswers } = await import('../db/connection/wait.ts');
  const target = { databaseUrl: cfg.databaseUrl, schema: cfg.databaseSchema, configSchema: cfg.databaseConfigSchema };
  await untilDatabaseAnswers(
    'schema check',
    async () => {
      const pending = (await migrationStatus(target, log)).filter((m) => !m.applied);
      if (pending.length === 0) return;
      log.info({ pending: pending.map((m) => m.name), schema: cfg.databaseSchema }, 'applying pending migrations');
      await migrate(target, log);
    },
    log,
  );
}
