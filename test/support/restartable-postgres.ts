/**
 * @module A PostgreSQL server of its own for fault tests: it can be stopped (a fast shutdown, as `pg_ctl stop -m fast`)
 * and started again on the same data directory and port, which the shared test server cannot do.
 */
import { rmSync } from 'node:fs';
import type pg from 'pg';
import { launchEmbeddedPostgres, queryOnce } from './postgres.ts';

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
  const { epg, dir, server } = await launchEmbeddedPostgres({
    dirPrefix: 'mdw-test-pg-restart-',
    persistent: true,
    settings: ['fsync=off', 'synchronous_commit=off', 'max_connections=200'],
  });
  await queryOnce(`${server}/postgres`, 'CREATE DATABASE middleware');
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
    query: (sql, params) => queryOnce(url, sql, params),
    destroy: async () => {
      if (running) await epg.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
