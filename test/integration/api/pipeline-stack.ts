/**
 * @module The whole pipeline for a test: a devnode's chain loaded by the populator into a fresh database, and the
 * API (the gateway) over it on a real HTTP port, so aepp-sdk's clients can be given its URL.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import type Koa from 'koa';
import prom from 'prom-client';
import { createApp } from '../../../src/api/app.ts';
import { writeNodeFiles } from '../../../src/cli/dev/node-files.ts';
import { loadConfig, type Config } from '../../../src/config/middleware.ts';
import { createPool, type Pool } from '../../../src/db/connection/pool.ts';
import type { Devnode } from '../../../src/devnode/index.ts';
import { startPopulator } from '../../../src/indexer/sync/populator.ts';
import { createTestDatabase } from '../../support/postgres.ts';
import { silentLog } from './harness.ts';

/** PipelineStack: the API's app, its metrics registry, a pool on its database and its URL; stop ends all. */
export interface PipelineStack {
  readonly app: Koa;
  readonly registry: prom.Registry;
  readonly pool: Pool;
  /** the gateway's URL, for the SDK's clients */
  readonly url: string;
  /** the populator's configuration (its database and schema), e.g. for `mdw -v` over what it loaded */
  readonly cfg: Config;
  stop(): Promise<void>;
}

/** startPipeline loads `devnode`'s chain into a new database (schema `schema`) and serves the API over it. */
export async function startPipeline(devnode: Devnode, schema: string): Promise<PipelineStack> {
  // a copy of the schema migrated (postgres.ts's template, which the files on schema `mdw` share): the populator finds
  // it up to date, where it migrated a new database itself (~0.4 CPU-s of PostgreSQL's each)
  const db = await createTestDatabase({ migrated: schema });
  // the devnode's reward rules, genesis accounts and hard-fork files, as its operator gives a node's
  const files = await mkdtemp(join(tmpdir(), 'mdw-pipeline-'));
  const { genesisAccountsFile, forkFiles } = await writeNodeFiles(files, devnode.chain);
  const cfg = loadConfig({
    REWARD_RULES: 'devnode',
    GENESIS_ACCOUNTS_FILE: genesisAccountsFile,
    ...forkFiles,
    DATABASE_URL: db.url,
    NODE_URL: devnode.externalUrl,
    POLL_INTERVAL_MS: '100',
    DATABASE_SCHEMA: schema,
  });
  const populator = await startPopulator({ cfg, log: silentLog, registry: new prom.Registry() });
  await populator.synced();
  const pool = createPool({ databaseUrl: db.url, schema, max: 4 }, silentLog);
  const registry = new prom.Registry();
  const app = createApp({ cfg, log: silentLog, pool, registry, version: 't' });
  const server: Server = createServer(app.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    app,
    registry,
    pool,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    cfg,
    async stop() {
      await new Promise((resolve) => server.close(resolve));
      await populator.stop();
      await pool.end();
      await db.drop();
      await rm(files, { recursive: true, force: true });
    },
  };
}
