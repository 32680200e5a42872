/**
 * @module Migrations: Umzug over migrations/*.sql, one schema per data generation, under an advisory lock. Before
 * applying, the history is checked (db/schema/baseline.ts): a schema a newer version migrated is refused, a schema from
 * before 0.1.0 is moved onto the baseline, and a pending file named below an applied one is refused. Pending files
 * apply in one transaction, but a file marked `-- mdw:no-transaction` (db/schema/migration-file.ts), which runs alone and
 * outside any, statement by statement, and is recorded only once none of the schema's indexes is left invalid. Then
 * the names' trigram index is built when it can be (db/schema/name-search-index.ts), else a warning says what to run.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import type { Umzug, UmzugStorage } from 'umzug';
import type { Logger } from '../../base/log.ts';
import { AppError, ErrorCode } from '../../base/errors.ts';
import { AT_0100, BEFORE_BASELINE, checkKnown, checkOrder, movesOntoBaseline, ONTO_BASELINE } from './baseline.ts';
import { isNoTransaction, nextRun, NO_TRANSACTION, statementsOf } from './migration-file.ts';
import { ensureNameSearchIndex, EXTENSION_SCHEMA, NAME_SEARCH_INDEX } from './name-search-index.ts';
import { shareConfiguration } from './shared-config.ts';
import { createPool, inTransaction, quoteIdent, type PoolClient } from '../connection/pool.ts';

/** Where the ordered SQL files live (shipped with the package). */
export const MIGRATIONS_DIR = fileURLToPath(new URL('../../../migrations/', import.meta.url));

/** Table, inside the target schema, that records the applied migrations. */
export const STATE_TABLE = 'mdw_migrations';

export interface MigrateOptions {
  readonly databaseUrl: string;
  readonly schema: string;
  /** the schema the users' configuration moves to (DATABASE_CONFIG_SCHEMA, migration 1133); default `schema` */
  readonly configSchema?: string;
  /** Only for tests: another directory of SQL files. */
  readonly dir?: string;
  /** apply only these of the pending files: the level a snapshot was taken at (`mdw snapshot import`), not beyond */
  readonly only?: readonly string[];
}

interface SqlMigration {
  readonly name: string;
  readonly sql: string;
  /** runs alone, outside any transaction (NO_TRANSACTION) */
  readonly noTransaction: boolean;
}

/** migrationNames lists the migrations this binary ships, in the order they apply. */
export function migrationNames(dir = MIGRATIONS_DIR): string[] {
  return readMigrations(dir).map((m) => m.name);
}

function readMigrations(dir: string): SqlMigration[] {
  return readdirSync(dir)
    .filter((f) => /^\d{4}_[a-z0-9_]+\.sql$/.test(f))
    .sort()
    .map((f) => {
      const sql = readFileSync(join(dir, f), 'utf8');
      return { name: f.replace(/\.sql$/, ''), sql, noTransaction: isNoTransaction(sql) };
    });
}

/** newestMigration is the last migration this binary ships: the newest schema it knows (`mdw db usage` reports it). */
export function newestMigration(dir = MIGRATIONS_DIR): string | undefined {
  return readMigrations(dir).at(-1)?.name;
}

function storageOn(client: PoolClient): UmzugStorage {
  return {
    async logMigration({ name }) {
      await client.query(`INSERT INTO ${STATE_TABLE} (name) VALUES ($1)`, [name]);
    },
    async unlogMigration({ name }) {
      await client.query(`DELETE FROM ${STATE_TABLE} WHERE name = $1`, [name]);
    },
    async executed() {
      const { rows } = await client.query<{ name: string }>(`SELECT name FROM ${STATE_TABLE} ORDER BY name`);
      return rows.map((r) => r.name);
    },
  };
}

/**
 * withLockedSchema runs fn on one dedicated connection that holds the schema's advisory lock,
 * after making sure (when `create`) the schema and the state table exist. Two starters serialise here.
 */
async function withLockedSchema<T>(
  opts: MigrateOptions,
  log: Logger,
  create: boolean,
  fn: (client: PoolClient) => Promise<T>,
): Promise<T> {
  const pool = createPool(
    {
      databaseUrl: opts.databaseUrl,
      schema: opts.schema,
      ...(opts.configSchema === undefined ? {} : { configSchema: opts.configSchema }),
      max: 1,
      applicationName: 'mdw-migrate',
    },
    log,
  );
  try {
    const client = await pool.connect();
    try {
      // The lock is session-level and taken before any DDL, so concurrent CREATE SCHEMA cannot race.
      await client.query('SELECT pg_advisory_lock(hashtext($1))', [`mdw_migrate:${opts.schema}`]);
      try {
        if (create) {
          await client.query(`CREATE SCHEMA IF NOT EXISTS ${quoteIdent(opts.schema)}`);
          await client.query(
            `CREATE TABLE IF NOT EXISTS ${STATE_TABLE} (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`,
          );
        }
        return await fn(client);
      } finally {
        await client.query('SELECT pg_advisory_unlock(hashtext($1))', [`mdw_migrate:${opts.schema}`]).catch(() => {});
      }
    } finally {
      client.release();
    }
  } finally {
    await pool.end();
  }
}

/**
 * umzugOn imports umzug only when migrations run: its entry loads its command-line parser too (@rushstack/ts-command-line,
 * about 120 modules, 0.2 s of CPU), which every start checking an up-to-date schema (migrationStatus) would pay for.
 */
async function umzugOn(client: PoolClient, migrations: readonly SqlMigration[], log: Logger): Promise<Umzug> {
  const { Umzug } = await import('umzug');
  return new Umzug({
    migrations: migrations.map((m) => ({
      name: m.name,
      up: async () => {
        if (!m.noTransaction) return void (await client.query(m.sql));
        for (const statement of statementsOf(m.name, m.sql)) await client.query(statement);
        await refuseInvalidIndexes(client, m.name);
      },
    })),
    storage: storageOn(client),
    logger: {
      info: (msg) => log.debug({ migration: msg }, 'migration event'),
      warn: (msg) => log.warn({ migration: msg }, 'migration warning'),
      error: (msg) => log.error({ migration: msg }, 'migration error'),
      debug: () => {},
    },
  });
}

/**
 * checkHistory moves a schema that applied every file before 0.1.0 onto the baseline (its log then lists the
 * baseline's files whose schema it has, not run; its own height cascade goes, for the baseline's files after those
 * to run as pending ones; no row touched) and refuses a history the files cannot continue.
 */
async function checkHistory(client: PoolClient, opts: MigrateOptions, files: readonly string[], log: Logger) {
  const storage = storageOn(client);
  let applied = await storage.executed({ context: {} });
  checkKnown(opts.schema, applied, files);
  if (movesOntoBaseline(opts.schema, applied, files)) {
    await client.query(readFileSync(join(opts.dir ?? MIGRATIONS_DIR, ONTO_BASELINE), 'utf8'));
    await client.query(`DELETE FROM ${STATE_TABLE} WHERE name = ANY($1::text[])`, [BEFORE_BASELINE]);
    for (const name of AT_0100) await storage.logMigration({ name, context: {} });
    log.info({ schema: opts.schema, recorded: AT_0100 }, 'schema from before 0.1.0 moved onto the baseline');
    applied = await storage.executed({ context: {} });
  }
  const done = new Set(applied);
  checkOrder(
    opts.schema,
    applied,
    files.filter((name) => !done.has(name)),
  );
}

/**
 * refuseInvalidIndexes fails a migration run outside a transaction that left an index of the schema invalid (a
 * `CREATE INDEX CONCURRENTLY` that failed or was cancelled keeps its index, unusable, yet written to at every insert):
 * it is not recorded, and runs again at the next start, which its own `DROP INDEX … IF EXISTS` makes possible.
 */
async function refuseInvalidIndexes(client: PoolClient, name: string): Promise<void> {
  const { rows } = await client.query<{ index: string }>(
    `SELECT c.relname AS index FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
      WHERE c.relnamespace = current_schema()::regnamespace AND NOT i.indisvalid ORDER BY 1`,
  );
  if (rows.length > 0)
    throw new AppError(
      ErrorCode.DB_MIGRATION_REFUSED,
      500,
      `migration ${name} (${NO_TRANSACTION}) left invalid index(es) ${rows.map((r) => r.index).join(', ')}: not ` +
        'recorded; it drops and builds them again at the next start',
    );
}

/**
 * migrate creates the schema if needed and applies every pending migration, returning the names applied by this
 * call: in one transaction (all or nothing, the history's check included), but for the files that run outside any,
 * each alone between the transactions of the files before and after it (nextRun).
 */
export async function migrate(opts: MigrateOptions, log: Logger): Promise<string[]> {
  const migrations = readMigrations(opts.dir ?? MIGRATIONS_DIR);
  const noTransaction = new Set(migrations.filter((m) => m.noTransaction).map((m) => m.name));
  return withLockedSchema(opts, log, true, async (client) => {
    const umzug = await umzugOn(client, migrations, log);
    const names: string[] = [];
    for (let first = true; ; first = false) {
      const run = await inTransaction(client, async () => {
        if (first)
          await checkHistory(
            client,
            opts,
            migrations.map((m) => m.name),
            log,
          );
        const pending = (await umzug.pending()).map((m) => m.name);
        const next = nextRun(opts.only ? pending.filter((name) => opts.only!.includes(name)) : pending, noTransaction);
        if (next.inTransaction && next.names.length > 0) await umzug.up({ migrations: next.names });
        return next;
      });
      if (run.names.length === 0) break;
      if (!run.inTransaction) {
        log.info({ schema: opts.schema, migration: run.names[0] }, 'applying a migration outside a transaction');
        // the refusal of an invalid index as itself, not wrapped in Umzug's MigrationError: a start says it in one line
        await umzug.up({ migrations: run.names }).catch((err: unknown) => {
          throw err instanceof Error && err.cause instanceof AppError ? err.cause : err;
        });
      }
      names.push(...run.names);
    }
    if (names.length > 0) log.info({ schema: opts.schema, applied: names }, 'migrations applied');
    const configSchema = opts.configSchema ?? opts.schema;
    const moved = await inTransaction(client, () => shareConfiguration(client, opts.schema, configSchema));
    if (moved.length > 0)
      log.info({ schema: opts.schema, configSchema, tables: moved }, "the users' configuration moved to its schema");
    const search = await ensureNameSearchIndex(client);
    if (search.state === 'built')
      log.info({ schema: opts.schema, index: NAME_SEARCH_INDEX }, 'name search index built');
    if (search.state === 'absent')
      log.warn(
        { schema: opts.schema, reason: search.reason },
        "the names' substring search (/middleware/names/{query}) reads every name: no pg_trgm index. As a superuser " +
          `run \`CREATE SCHEMA IF NOT EXISTS ${EXTENSION_SCHEMA}; CREATE EXTENSION pg_trgm SCHEMA ${EXTENSION_SCHEMA};\` in ` +
          'this database, then `mdw migrate` or start the populator (docs/operations.md, "A name\'s substring search")',
      );
    return names;
  });
}

/** migrationStatus lists every known migration and whether the schema has it. */
export async function migrationStatus(
  opts: MigrateOptions,
  log: Logger,
): Promise<{ name: string; applied: boolean }[]> {
  const migrations = readMigrations(opts.dir ?? MIGRATIONS_DIR);
  return withLockedSchema(opts, log, false, async (client) => {
    // Status never creates anything: a missing schema simply has nothing applied.
    const { rows } = await client.query<{ t: string | null }>('SELECT to_regclass($1) AS t', [
      `${quoteIdent(opts.schema)}.${STATE_TABLE}`,
    ]);
    const executed = new Set(rows[0]?.t ? await storageOn(client).executed({ context: {} }) : []);
    return migrations.map((m) => ({ name: m.name, applied: executed.has(m.name) }));
  });
}
