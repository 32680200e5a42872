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

/** A database of one test file, with the migrations of the release before the one under test. */
export interface MigrationBefore {
  /** migrateBefore migrates `schema` by the shipped migrations named below the one under test */
  migrateBefore(schema: string): Promise<string[]>;
  /** migrateAll migrates `schema` by all the shipped migrations and returns the names it applied */
  migrateAll(schema: string): Promise<string[]>;
  /** query runs one statement on a connection of its own and returns its rows */
  query(sql: string, params?: unknown[]): Promise<unknown[]>;
  /** drop drops the database and removes the folder of the release before */
  drop(): Promise<void>;
}

/** databaseBeforeMigration makes a fresh database and a folder of the shipped migrations named below `migration`. */
export async function databaseBeforeMigration(migration: string): Promise<MigrationBefore> {
  const dir = await mkdtemp(join(tmpdir(), `mdw-before-${migration.split('_')[0]}-`));
  for (const f of await readdir(MIGRATIONS_DIR))
    if (f.endsWith('.sql') && f < `${migration}.sql`) await copyFile(join(MIGRATIONS_DIR, f), join(dir, f));
  const db = await createTestDatabase();
  return {
    migrateBefore: (schema) => migrate({ databaseUrl: db.url, schema, dir }, silent),
    migrateAll: (schema) => migrate({ databaseUrl: db.url, schema }, silent),
    query: async (sql, params) => (await queryOnce(db.url, sql, params)).rows,
    drop: async () => {
      await db.drop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
