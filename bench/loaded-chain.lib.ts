/**
 * @module The HTTP benchmarks' chain: `mdw devnode --generate` in its own process, loaded into a fresh test database
 * by the real populator (stopped once synced), as bench/api.ts and bench/graphql.ts measure their servers over it.
 */
import { performance } from 'node:perf_hooks';
import prom from 'prom-client';
import { loadConfig, type Config } from '../src/config/middleware.ts';
import { startPopulator } from '../src/indexer/sync/populator.ts';
import { createLogger } from '../src/base/log.ts';
import { createTestDatabase, stopTestServer } from '../test/support/postgres.ts';
import { nodeFilesArgs, startDevnodeProcess, type Child } from './http.lib.ts';

export interface LoadedChain {
  /** the servers' environment: the database, its schema and the devnode (plus what the caller added) */
  readonly env: Readonly<Record<string, string>>;
  readonly cfg: Config;
  readonly devnode: Child;
  readonly generatedMs: number;
  readonly loadedMs: number;
  /** stop ends the devnode and drops the database */
  stop(): Promise<void>;
}

const log = createLogger({ logLevel: 'silent', logPretty: false, logDir: undefined }).log;

/**
 * loadedChain generates `generations` generations from `seed` and loads them into `schema`; `env` adds to the
 * populator's and the servers' environment (a pool size). Prints how long both took. `devnodeMdw` is the bin/mdw.js
 * whose devnode generates the chain: another tree's (BENCH_CHAIN_MDW) for an A/B against a server older than the
 * transaction types today's devnode makes (774716f answers 500 to a page holding a ChannelSetDelegatesTx).
 * `devnodeArgs` add to the devnode's flags (`--mainnet-like`).
 */
export async function loadedChain(
  generations: number,
  seed: string,
  schema: string,
  env: Readonly<Record<string, string>> = {},
  devnodeMdw = process.env.BENCH_CHAIN_MDW,
  devnodeArgs: readonly string[] = [],
): Promise<LoadedChain> {
  const t0 = performance.now();
  // another tree's devnode may not write the node's files: the populator then has the devnode's reward rules alone
  const nodeFiles = devnodeMdw === undefined ? nodeFilesArgs() : [];
  const devnode = await startDevnodeProcess(
    ['--generate', String(generations), '--seed', seed, ...devnodeArgs, ...nodeFiles],
    undefined,
    devnodeMdw,
  );
  const generatedMs = performance.now() - t0;
  const db = await createTestDatabase();
  const chainEnv = {
    DATABASE_URL: db.url,
    DATABASE_SCHEMA: schema,
    NODE_URL: devnode.url,
    POLL_INTERVAL_MS: '200',
    ...env,
  };
  // the populator configured as a deployment on the devnode's chain (DevnodeChild); the servers need none of it
  const cfg = loadConfig({ ...devnode.deployment, ...chainEnv });
  const t1 = performance.now();
  const populator = await startPopulator({ cfg, log, registry: new prom.Registry() });
  await populator.synced();
  await populator.stop();
  const loadedMs = performance.now() - t1;
  console.log(
    `chain of ${generations} generations: generated in ${(generatedMs / 1000).toFixed(1)} s, loaded by the populator in ${(loadedMs / 1000).toFixed(1)} s`,
  );
  async function stop(): Promise<void> {
    await devnode.stop();
    await db.drop();
    await stopTestServer();
  }
  return { env: chainEnv, cfg, devnode, generatedMs, loadedMs, stop };
}
