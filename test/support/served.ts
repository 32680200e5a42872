/**
 * @module A devnode's chain loaded and served in the test's process: the tests whose oracle is the devnode's own state
 * ask the middleware's REST and GraphQL answers through supertest.
 */
import prom from 'prom-client';
import type supertest from 'supertest';
import { createApp } from '../../src/api/app.ts';
import { loadConfig, type Config } from '../../src/config/middleware.ts';
import { createPool, type Pool } from '../../src/db/connection/pool.ts';
import { silentLog } from '../integration/api/harness.ts';
import { populateToTop } from './populate.ts';
import { createTestDatabase } from './postgres.ts';
import { appRequest } from './app-request.ts';

/** An app over a loaded schema; close ends its pool (and drops the database it made). */
export interface Served {
  readonly cfg: Config;
  readonly request: ReturnType<typeof supertest>;
  /** the server's URL (app-request.ts plainGet) */
  readonly url: string;
  readonly pool: Pool;
  close(): Promise<void>;
}

/** serveLoaded serves `cfg`'s loaded schema as a server role does. */
export async function serveLoaded(cfg: Config): Promise<Served> {
  const pool = createPool({ databaseUrl: cfg.databaseUrl, schema: cfg.databaseSchema, max: 2 }, silentLog);
  const app = createApp({ cfg, log: silentLog, pool, registry: new prom.Registry(), version: 't' });
  const { request, url, close } = await appRequest(app.callback());
  return {
    cfg,
    request,
    url,
    pool,
    async close() {
      await close();
      await pool.end();
    },
  };
}

/** loadAndServe loads the chain of the node at `nodeUrl` into a new database up to its top and serves it. */
export async function loadAndServe(nodeUrl: string): Promise<Served> {
  const db = await createTestDatabase({ migrated: 'mdw', verifyScratch: true });
  try {
    const cfg = loadConfig({ NODE_URL: nodeUrl, DATABASE_URL: db.url, DATABASE_SCHEMA: 'mdw', POLL_INTERVAL_MS: '50' });
    await populateToTop(cfg);
    const served = await serveLoaded(cfg);
    return {
      ...served,
      async close() {
        await served.close();
        await db.drop();
      },
    };
  } catch (err) {
    await db.drop();
    throw err;
  }
}
