/**
 * @module GraphQL benchmark: a page of 100 transactions asked of /mdw/graphql, alone and with their blocks, against the
 * same page of /mdw/v3/transactions, in one run on the 20k-generation devnode chain loaded by the populator. Prints
 * the numbers and writes bench/results/graphql.json.
 *
 *   node bench/graphql.ts
 *
 * The server is `mdw -s` in its own process, as in production; this process generates the chain's load (undici) and,
 * before measuring, runs the devnode and the populator. The pages start at 1000 random positions of the chain (REST
 * cursors, and the GraphQL cursors of the same positions), read one after another for latency, then 16 in flight.
 * BENCH_GENERATIONS (default 20000) sets the chain length, BENCH_REQUESTS (default 3000) the requests per scenario.
 */
import { availableParallelism } from 'node:os';
import { performance } from 'node:perf_hooks';
import prom from 'prom-client';
import { encodeCursor, listTag } from '../src/api/graphql/cursor.ts';
import { loadConfig } from '../src/config.ts';
import { createPool } from '../src/db/pool.ts';
import { startPopulator } from '../src/indexer/sync/populator.ts';
import { createLogger } from '../src/log.ts';
import { createTestDatabase, stopTestServer } from '../test/support/postgres.ts';
import { cpuMicros, killChildrenOnExit, load, startDevnodeProcess, startMdwServer, type Result } from './http.lib.ts';
import { writeResult } from './results.lib.ts';

const GENERATIONS = Number(process.env.BENCH_GENERATIONS ?? 20_000);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 3000);
const CONCURRENCY = 16;
const PAGE_LIMIT = 100;
const SCHEMA = 'mdw_bench_graphql';
const log = createLogger({ logLevel: 'silent', logPretty: false, logDir: undefined }).log;

const TX_FIELDS = 'hash blockHash blockHeight encodedTx microIndex microTime signatures tx txIndex';
const BLOCK_FIELDS = 'hash height time gas transactionsCount microBlockIndex prevHash stateHash txsHash';

async function main(): Promise<void> {
  killChildrenOnExit();
  const t0 = performance.now();
  const devnode = await startDevnodeProcess(['--generate', String(GENERATIONS), '--seed', 'bench-api']);
  const generatedMs = performance.now() - t0;
  const db = await createTestDatabase();
  const env = { DATABASE_URL: db.url, DATABASE_SCHEMA: SCHEMA, NODE_URL: devnode.url, POLL_INTERVAL_MS: '200' };
  const t1 = performance.now();
  const populator = await startPopulator({ cfg: loadConfig(env), log, registry: new prom.Registry() });
  await populator.synced();
  await populator.stop();
  const loadedMs = performance.now() - t1;
  console.log(
    `chain of ${GENERATIONS} generations: generated in ${(generatedMs / 1000).toFixed(1)} s, loaded in ${(loadedMs / 1000).toFixed(1)} s`,
  );
  const pool = createPool({ databaseUrl: db.url, schema: SCHEMA, max: 2 }, log);
  const positions = (
    await pool.query<{ c: string }>(
      `SELECT height || '-' || micro_index || '-' || tx_index AS c FROM transactions ORDER BY random() LIMIT 1000`,
    )
  ).rows.map((r) => r.c);
  await pool.end();
  const api = await startMdwServer({ ...env, API_CACHE_MAX_BYTES: '0' });
  const pick = (): string => positions[Math.floor(Math.random() * positions.length)]!;
  const tag = listTag('transactions', {});
  const graphql = (selection: string) => (): string => {
    const cursor = encodeCursor(tag, { cursor: pick(), rev: false });
    const query = `{ transactions(limit: ${PAGE_LIMIT}, cursor: "${cursor}") { data { ${selection} } nextCursor } }`;
    return `/mdw/graphql?query=${encodeURIComponent(query)}`;
  };
  const scenarios: [string, () => string][] = [
    ['rest_v3_transactions_page', () => `/mdw/v3/transactions?limit=${PAGE_LIMIT}&cursor=${pick()}`],
    ['graphql_transactions_page', graphql(TX_FIELDS)],
    ['graphql_transactions_page_with_blocks', graphql(`${TX_FIELDS} block { ${BLOCK_FIELDS} }`)],
    [
      'graphql_transactions_page_with_blocks_and_key_blocks',
      graphql(`${TX_FIELDS} block { ${BLOCK_FIELDS} keyBlock { hash height miner beneficiaryReward } }`),
    ],
  ];
  // an unmeasured warm-up of each (the JIT, the named statements of every pooled connection); then a check
  // that the GraphQL answers are pages of 100 without errors
  for (const [, path] of scenarios) await load(api.url, path, Math.ceil(REQUESTS / 10), CONCURRENCY);
  for (const [name, path] of scenarios.slice(1)) {
    const body = (await (await fetch(`${api.url}${path()}`)).json()) as {
      data?: { transactions: { data: unknown[] } };
      errors?: unknown;
    };
    if (body.errors || body.data?.transactions.data.length !== PAGE_LIMIT)
      throw new Error(`${name}: ${JSON.stringify(body.errors ?? 'not a page of 100')}`);
  }
  const results: Record<string, Result & { serverCpuUsPerRequest: number }> = {};
  for (const [mode, concurrency, total] of [
    ['sequential', 1, Math.ceil(REQUESTS / 4)],
    ['in_flight', CONCURRENCY, REQUESTS],
  ] as const) {
    for (const [name, path] of scenarios) {
      const cpuBefore = cpuMicros(api.pid);
      const r = await load(api.url, path, total, concurrency);
      const key = `${name}_${mode}`;
      results[key] = { ...r, serverCpuUsPerRequest: Math.round((cpuMicros(api.pid) - cpuBefore) / (r.requests + 1)) };
      console.log(
        `${key.padEnd(66)} ${r.perSecond.toFixed(0).padStart(5)} req/s   p50 ${r.p50Ms.toFixed(2)} ms   p99 ${r.p99Ms.toFixed(2)} ms   server CPU ${results[key].serverCpuUsPerRequest} us/req   load ${r.load1.toFixed(1)}`,
      );
    }
  }
  writeResult('graphql', {
    date: new Date().toISOString(),
    setup: {
      generations: GENERATIONS,
      pageLimit: PAGE_LIMIT,
      requests: REQUESTS,
      concurrency: CONCURRENCY,
      generatedMs: Math.round(generatedMs),
      loadedMs: Math.round(loadedMs),
    },
    results,
    targets: { graphqlTransactionsWithBlocksP99Ms: 20 },
    machine: { cpus: availableParallelism(), note: 'shared by other jobs while measuring; compare within a run' },
  });
  await Promise.all([api.stop(), devnode.stop()]);
  await db.drop();
  await stopTestServer();
}

await main();
