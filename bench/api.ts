/**
 * @module API benchmark: cached node reads and account pages against a database loaded from a
 * devnode chain by the real populator, with a bare Koa endpoint and the devnode's own answers
 * measured in the same run as baselines. Prints the numbers and writes bench/results/api.json.
 *
 * Everything (devnode, API, bare Koa, load generator) shares one process and the machine, so the
 * ratios measured in the same run are the numbers to compare, not the absolute rates.
 * BENCH_GENERATIONS (default 20000: about two minutes to generate and load) sets the chain length; BENCH_ACCOUNT_TXS (default 100000) the
 * size of the synthetic heavy account; BENCH_REQUESTS (default 3000) requests per scenario.
 * Plain mdw scenarios read the database (uniform over the chain, no response cache); `_memory`
 * ones ask an app with the response cache for a warmed hot set of final heights and transactions.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { performance } from 'node:perf_hooks';
import Koa from 'koa';
import prom from 'prom-client';
import { Pool as HttpPool } from 'undici';
import { createApp } from '../src/api/app.ts';
import { ResponseCache } from '../src/api/response-cache.ts';
import { loadConfig } from '../src/config.ts';
import { createPool } from '../src/db/pool.ts';
import { startDevnode } from '../src/devnode/index.ts';
import { startPopulator } from '../src/indexer/populator.ts';
import { createLogger } from '../src/log.ts';
import { encode } from '../src/chain/encoding.ts';
import { createTestDatabase, stopTestServer } from '../test/support/postgres.ts';

const GENERATIONS = Number(process.env.BENCH_GENERATIONS ?? 20_000);
const ACCOUNT_TXS = Number(process.env.BENCH_ACCOUNT_TXS ?? 100_000);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 3000);
const CONCURRENCY = 16;
/** final heights and transactions read repeatedly by the `_memory` scenarios */
const HOT_SET = 1000;
/** bare Koa and memory answers get this many times BENCH_REQUESTS */
const FAST_REQUESTS_FACTOR = 5;
const PAGE_LIMIT = 100;
const SCHEMA = 'mdw_bench';
const log = createLogger({ logLevel: 'silent', logPretty: false, logDir: undefined }).log;

interface Result { readonly requests: number; readonly perSecond: number; readonly p50Ms: number; readonly p99Ms: number }

async function main(): Promise<void> {
  const t0 = performance.now();
  const devnode = await startDevnode({ port: 0, internalPort: 0, microBlockIntervalMs: 0, generate: { generations: GENERATIONS, seed: 'bench-api' } }, log);
  const generatedMs = performance.now() - t0;
  const db = await createTestDatabase();
  const cfg = loadConfig({ DATABASE_URL: db.url, DATABASE_SCHEMA: SCHEMA, NODE_URL: devnode.externalUrl, POLL_INTERVAL_MS: '200', DATABASE_POOL_SIZE: '20' });
  const t1 = performance.now();
  const populator = await startPopulator({ cfg, log, registry: new prom.Registry() });
  await populator.synced();
  await populator.stop();
  const loadedMs = performance.now() - t1;
  console.log(`chain of ${GENERATIONS} generations: generated in ${(generatedMs / 1000).toFixed(1)} s, loaded by the populator in ${(loadedMs / 1000).toFixed(1)} s`);
  const pool = createPool({ databaseUrl: db.url, schema: SCHEMA, max: 20 }, log);
  const top = devnode.height();
  const txHashes = (await pool.query<{ hash: string }>('SELECT hash FROM transactions ORDER BY random() LIMIT 1000')).rows.map((r) => r.hash);
  const heavy = encode('ak', new Uint8Array(32).fill(0xbe));
  await addHeavyAccount(pool, heavy, top);

  const api = await listen(createApp({ cfg, log, pool, registry: new prom.Registry(), version: 'bench' }).callback());
  // The same app with the in-memory cache of final answers, as the server role runs it (the chain
  // does not change here, so no invalidation listener is needed).
  const responseCache = new ResponseCache({ maxBytes: cfg.apiCacheMaxBytes });
  const memoryApi = await listen(createApp({ cfg, log, pool, registry: new prom.Registry(), version: 'bench', responseCache }).callback());
  const bare = new Koa();
  bare.use((ctx) => { ctx.body = { height: top }; });
  const baseline = await listen(bare.callback());
  const randomHeight = (): number => 1 + Math.floor(Math.random() * top);
  const randomTx = (): string => txHashes[Math.floor(Math.random() * txHashes.length)]!;
  // A hot set of final heights and transactions, each read once before measuring (memory hits).
  const finalTop = top - cfg.forkWindow - 1;
  const hotHeights = Array.from({ length: Math.min(HOT_SET, finalTop) }, (_, i) => 1 + Math.floor((i * finalTop) / Math.min(HOT_SET, finalTop)));
  const hotTxs = (await pool.query<{ hash: string }>('SELECT hash FROM transactions WHERE height <= $1 AND hash NOT LIKE $2 ORDER BY random() LIMIT $3', [finalTop, 'th_bench%', HOT_SET])).rows.map((r) => r.hash);
  const hotHeight = (): number => hotHeights[Math.floor(Math.random() * hotHeights.length)]!;
  const hotTx = (): string => hotTxs[Math.floor(Math.random() * hotTxs.length)]!;
  for (const h of hotHeights) await (await fetch(`${memoryApi.url}/v2/generations/height/${h}`)).text();
  for (const t of hotTxs) await (await fetch(`${memoryApi.url}/v2/transactions/${t}`)).text();
  // Memory answers and bare Koa take well under a millisecond: they get more requests, after an
  // unmeasured warm-up of both, so the JIT and connection setup do not decide their ratio.
  const fast = FAST_REQUESTS_FACTOR * REQUESTS;
  await load(baseline.url, () => '/', fast, CONCURRENCY);
  await load(memoryApi.url, () => `/v2/generations/height/${hotHeight()}`, fast, CONCURRENCY);
  const deepPage = Math.floor(ACCOUNT_TXS / PAGE_LIMIT) - 1;
  const deepCursor = await cursorAt(pool, heavy, (deepPage - 1) * PAGE_LIMIT);

  const results: Record<string, Result> = {};
  const run = async (name: string, base: string, path: () => string, concurrency = CONCURRENCY, total = REQUESTS): Promise<void> => {
    // Sequential runs measure latency; a quarter of the requests is plenty for a p99.
    results[name] = await load(base, path, concurrency === 1 ? Math.ceil(total / 4) : total, concurrency);
    const r = results[name];
    console.log(`${name.padEnd(34)} ${r.perSecond.toFixed(0).padStart(7)} req/s   p50 ${r.p50Ms.toFixed(2)} ms   p99 ${r.p99Ms.toFixed(2)} ms`);
  };
  await run('bare_koa', baseline.url, () => '/', CONCURRENCY, fast);
  await run('mdw_generation_by_height', api.url, () => `/v2/generations/height/${randomHeight()}`);
  await run('mdw_generation_by_height_memory', memoryApi.url, () => `/v2/generations/height/${hotHeight()}`, CONCURRENCY, fast);
  await run('devnode_generation_by_height', devnode.externalUrl, () => `/v2/generations/height/${randomHeight()}`);
  await run('mdw_transaction_by_hash', api.url, () => `/v2/transactions/${randomTx()}`);
  await run('mdw_transaction_by_hash_memory', memoryApi.url, () => `/v2/transactions/${hotTx()}`, CONCURRENCY, fast);
  await run('mdw_key_block_by_height_memory', memoryApi.url, () => `/v2/key-blocks/height/${hotHeight()}`, CONCURRENCY, fast);
  await run('bare_koa_again', baseline.url, () => '/', CONCURRENCY, fast);
  await run('devnode_transaction_by_hash', devnode.externalUrl, () => `/v2/transactions/${randomTx()}`);
  await run('mdw_account_first_page', api.url, () => `/middleware/transactions/account/${heavy}?limit=${PAGE_LIMIT}`);
  await run('mdw_account_deep_page', api.url, () => `/middleware/transactions/account/${heavy}?limit=${PAGE_LIMIT}&page=${deepPage}`);
  await run('mdw_account_first_page_sequential', api.url, () => `/middleware/transactions/account/${heavy}?limit=${PAGE_LIMIT}`, 1);
  await run('mdw_account_deep_page_sequential', api.url, () => `/middleware/transactions/account/${heavy}?limit=${PAGE_LIMIT}&page=${deepPage}`, 1);
  await run('mdw_account_deep_cursor', api.url, () => `/middleware/transactions/account/${heavy}?limit=${PAGE_LIMIT}&cursor=${deepCursor}`);
  await run('mdw_account_deep_cursor_sequential', api.url, () => `/middleware/transactions/account/${heavy}?limit=${PAGE_LIMIT}&cursor=${deepCursor}`, 1);

  const ratio = (a: string, b: string): number => Number((results[a]!.perSecond / results[b]!.perSecond).toFixed(3));
  const summary = {
    date: new Date().toISOString(),
    setup: { generations: GENERATIONS, top, hotSet: HOT_SET, responseCache: responseCache.stats(), accountTxs: ACCOUNT_TXS, deepPage, pageLimit: PAGE_LIMIT, requestsPerScenario: REQUESTS, fastRequestsPerScenario: fast, concurrency: CONCURRENCY, generatedMs: Math.round(generatedMs), loadedMs: Math.round(loadedMs) },
    results,
    ratios: {
      generation_vs_bare_koa: ratio('mdw_generation_by_height', 'bare_koa'),
      transaction_vs_bare_koa: ratio('mdw_transaction_by_hash', 'bare_koa'),
      generation_memory_vs_bare_koa: ratio('mdw_generation_by_height_memory', 'bare_koa'),
      transaction_memory_vs_bare_koa: ratio('mdw_transaction_by_hash_memory', 'bare_koa'),
      key_block_memory_vs_bare_koa: ratio('mdw_key_block_by_height_memory', 'bare_koa'),
      generation_memory_vs_bare_koa_again: ratio('mdw_generation_by_height_memory', 'bare_koa_again'),
      transaction_memory_vs_bare_koa_again: ratio('mdw_transaction_by_hash_memory', 'bare_koa_again'),
      key_block_memory_vs_bare_koa_again: ratio('mdw_key_block_by_height_memory', 'bare_koa_again'),
      generation_vs_devnode: ratio('mdw_generation_by_height', 'devnode_generation_by_height'),
      transaction_vs_devnode: ratio('mdw_transaction_by_hash', 'devnode_transaction_by_hash'),
    },
    targets: { cachedReadsAtLeastHalfOfBareKoa: 0.5, deepPageP99Ms: 20 },
    machine: { cpus: availableParallelism(), note: 'shared by other jobs while measuring; compare ratios, not absolutes' },
  };
  console.log(JSON.stringify(summary.ratios));
  writeFileSync(new URL('results/api.json', import.meta.url), `${JSON.stringify(summary, null, 2)}\n`);
  await Promise.all([api.close(), memoryApi.close(), baseline.close()]);
  await pool.end();
  await devnode.stop();
  await db.drop();
  await stopTestServer();
}

/** addHeavyAccount gives one account `ACCOUNT_TXS` spends spread over the stored heights (synthetic rows, real layout). */
async function addHeavyAccount(pool: ReturnType<typeof createPool>, account: string, top: number): Promise<void> {
  await pool.query(
    `INSERT INTO transactions (hash, height, micro_block_hash, micro_index, tx_index, micro_time_ms, tx_type, fee, signatures, size, tx)
     SELECT 'th_bench' || i, 1 + i % $2, 'mh_bench', 1000, i / $2, 0, 'SpendTx', 20000, ARRAY['sg_bench'], 200,
            jsonb_build_object('type', 'SpendTx', 'version', 1, 'sender_id', $1::text, 'recipient_id', $1::text, 'amount', i, 'fee', 20000, 'nonce', i, 'payload', 'ba_Xfbg4g==')
       FROM generate_series(0, $3 - 1) AS i`,
    [account, top, ACCOUNT_TXS],
  );
  await pool.query(
    `INSERT INTO account_transactions (account, height, micro_index, tx_index, tx_hash, tx_type, fields)
     SELECT $1, 1 + i % $2, 1000, i / $2, 'th_bench' || i, 'SpendTx', ARRAY['sender_id', 'recipient_id'] FROM generate_series(0, $3 - 1) AS i`,
    [account, top, ACCOUNT_TXS],
  );
  // The test server commits asynchronously; VACUUM can mark pages all-visible (index-only scans)
  // only once the commits are flushed, which the WAL writer does within a few hundred ms.
  await pool.query('SELECT pg_sleep(1)');
  await pool.query('VACUUM ANALYZE account_transactions');
  await pool.query('VACUUM ANALYZE transactions');
}

/** cursorAt is the keyset cursor that continues after the first `skip` rows of the account's list. */
async function cursorAt(pool: ReturnType<typeof createPool>, account: string, skip: number): Promise<string> {
  const { rows } = await pool.query<{ c: string }>(
    `SELECT height || '-' || micro_index || '-' || tx_index AS c FROM account_transactions WHERE account = $1
      ORDER BY height DESC, micro_index DESC, tx_index DESC OFFSET $2 LIMIT 1`,
    [account, skip - 1],
  );
  return rows[0]!.c;
}

async function listen(handler: Parameters<typeof createServer>[1]): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => { server.close(() => resolve()); server.closeAllConnections(); }),
  };
}

/** load sends `total` GETs with `concurrency` in flight over keep-alive connections and reports rate and latency. */
async function load(base: string, path: () => string, total: number, concurrency: number): Promise<Result> {
  const client = new HttpPool(base, { connections: concurrency, pipelining: 1 });
  const latencies: number[] = [];
  let sent = 0;
  const warm = await client.request({ method: 'GET', path: path() });
  await warm.body.text();
  const started = performance.now();
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (sent < total) {
      sent++;
      const t = performance.now();
      const res = await client.request({ method: 'GET', path: path() });
      await res.body.text();
      if (res.statusCode !== 200) throw new Error(`${base}: status ${res.statusCode}`);
      latencies.push(performance.now() - t);
    }
  }));
  const elapsed = performance.now() - started;
  await client.close();
  latencies.sort((a, b) => a - b);
  const at = (q: number): number => Number(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!.toFixed(3));
  return { requests: latencies.length, perSecond: Number(((latencies.length / elapsed) * 1000).toFixed(1)), p50Ms: at(0.5), p99Ms: at(0.99) };
}

await main();
