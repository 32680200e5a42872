/**
 * @module A test database for a test of one migration on a loaded schema: a schema migrated by the shipped migrations
 * named below it is as the release before left it, the test loads it, then the shipped migrations apply the one
 * under test (and any after it) as an upgrade does.
 */
import { copyFile, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { migrate, MIGRATIONS_DIR } from '../../src/db/schema/migrator.ts';
import { createTestDatabase, queryOnce } from './postgres.ts';

const silent = pino({ level: 'silent' });

/** The database of one test file, with the migrations of the release before the one under test (made by its hooks). */
export interface MigrationBefore {
  /** migrateBefore migrates `schema` by the shipped migrations named below the one under test */
  migrateBefore(schema: string): Promise<string[]>;
  /** migrateAll migrates `schema` by all the shipped migrations and returns the names it applied */
  migrateAll(schema: string): Promise<string[]>;
  /** url is the database's address (made by the hooks) */
  url(): string;
  /** query runs one statement on a connection of its own and returns its rows */
  query(sql: string, params?: unknown[]): Promise<unknown[]>;
}

/**
 * databaseBeforeMigration registers, in the calling `describe`, the hooks that make a fresh database and a folder of
 * the shipped migrations named below `migration` before its tests, and drop both after them.
 */
export function databaseBeforeMigration(migration: string): MigrationBefore {
  let dir = '';
  let db: { url: string; drop(): Promise<void> } | undefined;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), `mdw-before-${migration.split('_')[0]}-`));
    for (const f of await readdir(MIGRATIONS_DIR))
      if (f.endsWith('.sql') && f < `${migration}.sql`) await copyFile(join(MIGRATIONS_DIR, f), join(dir, f));
    db = await createTestDatabase();
  });
  after(async () => {
    await db?.drop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });
  const url = (): string => db!.url;
  return {
    migrateBefore: (schema) => migrate({ databaseUrl: url(), schema, dir }, silent),
    migrateAll: (schema) => migrate({ databaseUrl: url(), schema }, silent),
    url,
    query: async (sql, params) => (await queryOnce(url(), sql, params)).rows,
  };
}
