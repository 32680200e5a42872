/**
 * @module API benchmark: cached node reads and account pages against a database loaded from a
 * devnode chain by the real populator, with a bare Koa endpoint and the devnode's own answers
 * measured in the same run as baselines. Prints the numbers and writes bench/results/api.json.
 *
 *   node bench/api.ts      (BENCH_SERVER_NODE_OPTIONS="--cpu-prof --cpu-prof-dir=/tmp/prof" to profile the servers)
 *
 * Processes, as in production: the servers under test are `mdw -s` (bin/mdw.js, the real server
 * role with its own pool, LISTEN connection and websocket server), one without the response cache
 * (API_CACHE_MAX_BYTES=0: every read goes to the database) and one with it (64 MiB); the bare Koa
 * baseline is a child process of its own with the same Node flags; the devnode (`mdw devnode
 * --generate`, hundreds of MB of heap) runs in its own process too. This process generates the
 * load (undici) and, before measuring, runs the populator and the SQL setup. So the servers' p99
 * holds neither the devnode's garbage collections nor the load generator's work; the machine is
 * still shared (load generator and servers compete for the cores), so compare ratios measured in
 * the same run, not absolute rates.
 * BENCH_GENERATIONS (default 20000: a few minutes to generate and load) sets the chain length;
 * BENCH_ACCOUNT_TXS (default 100000) the size of the synthetic heavy account; BENCH_REQUESTS
 * (default 3000) requests per database scenario (five times as many for the sub-millisecond ones);
 * BENCH_ROUNDS (default 3) interleaved rounds of bare Koa and the memory scenarios (ratios per round).
 * Plain mdw scenarios read the database (uniform over the chain); `_memory` ones ask the server
 * with the response cache for a warmed hot set of final heights and transactions; `_gzip` ones
 * send `Accept-Encoding: gzip, deflate, br` as browsers do. Account pages are asked of the server
 * with the response cache (the default configuration: it keeps the counts and positions deep pages
 * need), and the deep page once more of the one without. Every kind of request gets an unmeasured
 * warm-up first. Each scenario also reports the answering process's CPU time per request (from
 * /proc; for mdw without PostgreSQL's share) and that of the run's own PostgreSQL server (postmaster
 * and backends; the populator has stopped), which other jobs on the machine disturb far less than
 * rates.
 */
import { availableParallelism } from 'node:os';
import { createPool } from '../src/db/connection/pool.ts';
import { createLogger } from '../src/base/log.ts';
import { encode } from '../src/chain/encoding.ts';
import { txTypeCode } from '../src/chain/id-key.ts';
import { storedTxColumns } from '../src/chain/stored-tx.ts';
import { accountNumber } from '../test/support/account-numbers.ts';
import {
  cpuMicros,
  killChildrenOnExit,
  load,
  median,
  startBareKoa,
  startMdwServer,
  type Child,
  type Result,
} from './http.lib.ts';
import { loadedChain } from './loaded-chain.lib.ts';
import { postgresCpuReader } from './process-cpu.lib.ts';
import { writeResult } from './results.lib.ts';

const GENERATIONS = Number(process.env.BENCH_GENERATIONS ?? 20_000);
const ACCOUNT_TXS = Number(process.env.BENCH_ACCOUNT_TXS ?? 100_000);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 3000);
/** Node flags of both the servers under test and the bare Koa baseline (e.g. --cpu-prof). */
const SERVER_NODE_OPTIONS = process.env.BENCH_SERVER_NODE_OPTIONS ?? '';
const CONCURRENCY = 16;
/** interleaved rounds of bare Koa and the memory scenarios */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
/** final heights and transactions read repeatedly by the `_memory` scenarios */
const HOT_SET = 1000;
/** bare Koa and memory answers get this many times BENCH_REQUESTS */
const FAST_REQUESTS_FACTOR = 5;
const PAGE_LIMIT = 100;
const SCHEMA = 'mdw_bench';
const GZIP = { 'accept-encoding': 'gzip, deflate, br' };
const log = createLogger({ logLevel: 'silent', logPretty: false, logDir: undefined }).log;

async function main(): Promise<void> {
  killChildrenOnExit();
  const chain = await loadedChain(GENERATIONS, 'bench-api', SCHEMA, { DATABASE_POOL_SIZE: '20' });
  const { env, cfg, devnode, generatedMs, loadedMs } = chain;
  const pool = createPool({ databaseUrl: env.DATABASE_URL!, schema: SCHEMA, max: 4 }, log);
  // the PostgreSQL server of this run alone (the populator has stopped): its CPU per request is the database's share
  const postgresCpu = await postgresCpuReader(env.DATABASE_URL!);
  const top = (await pool.query<{ h: number }>('SELECT max(height) AS h FROM key_blocks')).rows[0]!.h;
  const txHashes = (
    await pool.query<{ hash: string }>('SELECT hash FROM transactions ORDER BY random() LIMIT 1000')
  ).rows.map((r) => r.hash);
  const heavy = encode('ak', new Uint8Array(32).fill(0xbe));
  await addHeavyAccount(pool, heavy, top);
  const yearStart = await addYearOfTransactionStats(pool);
  const yearOfDays = `/mdw/v3/stats/transactions?interval_by=day&min_start_date=${yearStart}&limit=1000`;

  const api = await startMdwServer({ ...env, API_CACHE_MAX_BYTES: '0' }, SERVER_NODE_OPTIONS);
  const memoryApi = await startMdwServer(
    { ...env, API_CACHE_MAX_BYTES: String(64 * 1024 * 1024) },
    SERVER_NODE_OPTIONS,
  );
  const baseline = await startBareKoa(top, SERVER_NODE_OPTIONS);
  const randomHeight = (): number => 1 + Math.floor(Math.random() * top);
  const randomTx = (): string => txHashes[Math.floor(Math.random() * txHashes.length)]!;
  // A hot set of final heights and transactions, each read once before measuring (memory hits).
  const finalTop = top - cfg.forkWindow - 1;
  const hotHeights = Array.from(
    { length: Math.min(HOT_SET, finalTop) },
    (_, i) => 1 + Math.floor((i * finalTop) / Math.min(HOT_SET, finalTop)),
  );
  const hotTxs = (
    await pool.query<{ hash: string }>(
      'SELECT hash FROM transactions WHERE height <= $1 AND hash NOT LIKE $2 ORDER BY random() LIMIT $3',
      [finalTop, 'th_bench%', HOT_SET],
    )
  ).rows.map((r) => r.hash);
  const hotHeight = (): number => hotHeights[Math.floor(Math.random() * hotHeights.length)]!;
  const hotTx = (): string => hotTxs[Math.floor(Math.random() * hotTxs.length)]!;
  // in the node's /v2 and its /v3 (answers kept apart)
  for (const v of ['v2', 'v3']) {
    for (const h of hotHeights) {
      await (await fetch(`${memoryApi.url}/${v}/generations/height/${h}`)).text();
      await (await fetch(`${memoryApi.url}/${v}/key-blocks/height/${h}`)).text();
    }
    for (const t of hotTxs) await (await fetch(`${memoryApi.url}/${v}/transactions/${t}`)).text();
  }
  // Memory answers and bare Koa take well under a millisecond: they get more requests, after an
  // unmeasured warm-up of both, so the JIT and connection setup do not decide their ratio.
  const fast = FAST_REQUESTS_FACTOR * REQUESTS;
  await load(baseline.url, () => '/', fast, CONCURRENCY);
  await load(memoryApi.url, () => `/v2/generations/height/${hotHeight()}`, fast, CONCURRENCY);
  await load(memoryApi.url, () => `/v2/transactions/${hotTx()}`, fast, CONCURRENCY, GZIP);
  // Database answers get an unmeasured warm-up too: the JIT, and the named statements every pooled
  // connection prepares on first use (a cold server spent twice the CPU per answer).
  await load(api.url, () => `/v2/generations/height/${randomHeight()}`, REQUESTS, CONCURRENCY);
  await load(api.url, () => `/v2/transactions/${randomTx()}`, REQUESTS, CONCURRENCY);
  await load(api.url, () => `/v3/generations/height/${randomHeight()}`, REQUESTS, CONCURRENCY);
  const deepPage = Math.floor(ACCOUNT_TXS / PAGE_LIMIT) - 1;
  const deepCursor = await cursorAt(pool, heavy, (deepPage - 1) * PAGE_LIMIT);
  // and so do account pages, at every depth (the first deep page also takes the kept positions)
  const anyPage = (): string =>
    `/middleware/transactions/account/${heavy}?limit=${PAGE_LIMIT}&page=${1 + Math.floor(Math.random() * deepPage)}`;
  await load(memoryApi.url, anyPage, Math.ceil(REQUESTS / 4), CONCURRENCY);
  await load(api.url, anyPage, Math.ceil(REQUESTS / 20), CONCURRENCY);

  const results: Record<string, Result> = {};
  const ratio = (a: string, b: string): number => Number((results[a]!.perSecond / results[b]!.perSecond).toFixed(3));
  const run = async (
    name: string,
    server: Child,
    path: () => string,
    opts: { concurrency?: number; total?: number; headers?: Record<string, string> } = {},
  ): Promise<void> => {
    const concurrency = opts.concurrency ?? CONCURRENCY;
    const total = opts.total ?? REQUESTS;
    const cpuBefore = cpuMicros(server.pid);
    const postgresBefore = postgresCpu();
    // Sequential runs measure latency; a quarter of the requests is plenty for a p99.
    const measured = await load(
      server.url,
      path,
      concurrency === 1 ? Math.ceil(total / 4) : total,
      concurrency,
      opts.headers,
    );
    // The warm-up request of load() is counted too: one in thousands.
    const r = {
      ...measured,
      serverCpuUsPerRequest: Number(((cpuMicros(server.pid) - cpuBefore) / (measured.requests + 1)).toFixed(1)),
      postgresCpuUsPerRequest: Number((((postgresCpu() - postgresBefore) * 1e6) / (measured.requests + 1)).toFixed(1)),
    };
    results[name] = r;
    console.log(
      `${name.padEnd(36)} ${r.perSecond.toFixed(0).padStart(7)} req/s   p50 ${r.p50Ms.toFixed(2)} ms   p99 ${r.p99Ms.toFixed(2)} ms   server CPU ${r.serverCpuUsPerRequest.toFixed(0).padStart(4)} us/req   PostgreSQL ${r.postgresCpuUsPerRequest.toFixed(0).padStart(4)} us/req   load ${r.load1.toFixed(1)}`,
    );
  };
  // Memory answers against bare Koa in interleaved rounds, each ratio against the bare Koa of its
  // own round: other jobs on the machine come and go within seconds, and a round takes a few.
  const memoryScenarios: [string, () => string, Record<string, string>?][] = [
    ['mdw_generation_by_height_memory', () => `/v2/generations/height/${hotHeight()}`],
    ['mdw_transaction_by_hash_memory', () => `/v2/transactions/${hotTx()}`],
    ['mdw_key_block_by_height_memory', () => `/v2/key-blocks/height/${hotHeight()}`],
    ['mdw_generation_by_height_memory_gzip', () => `/v2/generations/height/${hotHeight()}`, GZIP],
    ['mdw_transaction_by_hash_memory_gzip', () => `/v2/transactions/${hotTx()}`, GZIP],
    // the node's /v3 cached queries, as fast as their /v2 (issue 26)
    ['mdw_v3_node_generation_by_height_memory', () => `/v3/generations/height/${hotHeight()}`],
    ['mdw_v3_node_transaction_by_hash_memory', () => `/v3/transactions/${hotTx()}`],
    ['mdw_v3_node_key_block_by_height_memory', () => `/v3/key-blocks/height/${hotHeight()}`],
    // ae_mdw's /v3/status, answered from memory (issue 12: at least half of bare Koa)
    ['mdw_v3_status_memory', () => '/mdw/v3/status'],
    // a year of daily transaction counts in one page, from memory per stored chain (issue 13: < 20 ms)
    ['mdw_v3_stats_year_of_days_memory', () => yearOfDays],
  ];
  const memoryRatios: Record<string, number[]> = {};
  const bareRates: number[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    await run(`bare_koa_round${round}`, baseline, () => '/', { total: fast });
    // The same Koa serving a buffer of a key block's size: shows the body size is not what costs.
    await run(`bare_koa_1k_round${round}`, baseline, () => '/bytes/1050', { total: fast });
    bareRates.push(results[`bare_koa_round${round}`]!.perSecond);
    for (const [name, path, headers] of memoryScenarios) {
      await run(`${name}_round${round}`, memoryApi, path, { total: fast, headers });
      (memoryRatios[name] ??= []).push(ratio(`${name}_round${round}`, `bare_koa_round${round}`));
    }
  }
  await run('mdw_generation_by_height', api, () => `/v2/generations/height/${randomHeight()}`);
  await run('devnode_generation_by_height', devnode, () => `/v2/generations/height/${randomHeight()}`);
  await run('mdw_transaction_by_hash', api, () => `/v2/transactions/${randomTx()}`);
  await run('mdw_v3_node_generation_by_height', api, () => `/v3/generations/height/${randomHeight()}`);
  await run('mdw_v3_node_transaction_by_hash', api, () => `/v3/transactions/${randomTx()}`);
  await run('devnode_transaction_by_hash', devnode, () => `/v2/transactions/${randomTx()}`);
  await run('mdw_account_first_page', memoryApi, () => `/middleware/transactions/account/${heavy}?limit=${PAGE_LIMIT}`);
  await run(
    'mdw_account_deep_page',
    memoryApi,
    () => `/middleware/transactions/account/${heavy}?limit=${PAGE_LIMIT}&page=${deepPage}`,
  );
  await run(
    'mdw_account_first_page_sequential',
    memoryApi,
    () => `/middleware/transactions/account/${heavy}?limit=${PAGE_LIMIT}`,
    { concurrency: 1 },
  );
  await run(
    'mdw_account_deep_page_sequential',
    memoryApi,
    () => `/middleware/transactions/account/${heavy}?limit=${PAGE_LIMIT}&page=${deepPage}`,
    { concurrency: 1 },
  );
  await run(
    'mdw_account_middle_page_sequential',
    memoryApi,
    () => `/middleware/transactions/account/${heavy}?limit=${PAGE_LIMIT}&page=${Math.floor(deepPage / 2)}`,
    { concurrency: 1 },
  );
  await run(
    'mdw_account_deep_page_sequential_without_cache',
    api,
    () => `/middleware/transactions/account/${heavy}?limit=${PAGE_LIMIT}&page=${deepPage}`,
    { concurrency: 1 },
  );
  await run(
    'mdw_account_deep_cursor',
    memoryApi,
    () => `/middleware/transactions/account/${heavy}?limit=${PAGE_LIMIT}&cursor=${deepCursor}`,
  );
  await run(
    'mdw_account_deep_cursor_sequential',
    memoryApi,
    () => `/middleware/transactions/account/${heavy}?limit=${PAGE_LIMIT}&cursor=${deepCursor}`,
    { concurrency: 1 },
  );

  // ae_mdw's /v3 pages (issue 12): cursor pages of 100 at random depths, sequential (latency)
  const v3Cursors = (
    await pool.query<{ c: string }>(
      `SELECT height || '-' || micro_index || '-' || tx_index AS c FROM transactions ORDER BY random() LIMIT 1000`,
    )
  ).rows.map((r) => r.c);
  const heavyCursors = (
    await pool.query<{ c: string }>(
      `SELECT height || '-' || micro_index || '-' || tx_index AS c FROM account_transactions WHERE account = $1 ORDER BY random() LIMIT 1000`,
      [await accountNumber(pool, heavy)],
    )
  ).rows.map((r) => r.c);
  const pick = (list: string[]): string => list[Math.floor(Math.random() * list.length)]!;
  const v3Scenarios: [string, () => string][] = [
    [
      'mdw_v3_transactions_cursor_page_sequential',
      () => `/mdw/v3/transactions?limit=${PAGE_LIMIT}&cursor=${pick(v3Cursors)}`,
    ],
    [
      'mdw_v3_account_spend_page_sequential',
      () => `/mdw/v3/transactions?account=${heavy}&type=spend&limit=${PAGE_LIMIT}&cursor=${pick(heavyCursors)}`,
    ],
    [
      'mdw_v3_two_ids_page_sequential',
      () =>
        `/mdw/v3/transactions?sender_id=${heavy}&recipient_id=${heavy}&limit=${PAGE_LIMIT}&cursor=${pick(heavyCursors)}`,
    ],
  ];
  for (const [, path] of v3Scenarios) await load(api.url, path, Math.ceil(REQUESTS / 10), CONCURRENCY);
  for (const [name, path] of v3Scenarios) await run(name, api, path, { concurrency: 1 });
  await run('mdw_v3_stats_year_of_days_sequential', api, () => yearOfDays, { concurrency: 1 });

  const bareMedian = median(bareRates);
  const vsBare = (name: string): number => Number((results[name]!.perSecond / bareMedian).toFixed(3));
  const summary = {
    date: new Date().toISOString(),
    setup: {
      generations: GENERATIONS,
      top,
      hotSet: HOT_SET,
      accountTxs: ACCOUNT_TXS,
      deepPage,
      pageLimit: PAGE_LIMIT,
      requestsPerScenario: REQUESTS,
      fastRequestsPerScenario: fast,
      concurrency: CONCURRENCY,
      serverNodeOptions: SERVER_NODE_OPTIONS,
      generatedMs: Math.round(generatedMs),
      loadedMs: Math.round(loadedMs),
    },
    results,
    ratios: {
      // per memory scenario: its rate ÷ bare Koa's of the same round, median and range over the rounds
      ...Object.fromEntries(
        Object.entries(memoryRatios).map(([name, rs]) => [
          `${name}_vs_bare_koa`,
          { median: median(rs), min: Math.min(...rs), max: Math.max(...rs), rounds: rs },
        ]),
      ),
      // database answers ÷ the median bare Koa rate
      mdw_generation_by_height_vs_bare_koa: vsBare('mdw_generation_by_height'),
      mdw_transaction_by_hash_vs_bare_koa: vsBare('mdw_transaction_by_hash'),
      // the node's /v3 from the database ÷ its /v2 of the same run
      mdw_v3_node_generation_vs_v2: ratio('mdw_v3_node_generation_by_height', 'mdw_generation_by_height'),
      mdw_v3_node_transaction_vs_v2: ratio('mdw_v3_node_transaction_by_hash', 'mdw_transaction_by_hash'),
      generation_vs_devnode: ratio('mdw_generation_by_height', 'devnode_generation_by_height'),
      transaction_vs_devnode: ratio('mdw_transaction_by_hash', 'devnode_transaction_by_hash'),
    },
    targets: {
      cachedReadsAtLeastHalfOfBareKoa: 0.5,
      deepPageP99Ms: 20,
      v3CursorPageP99Ms: 20,
      v3FilteredPageP99Ms: 50,
      v3StatsYearOfDaysP99Ms: 20,
    },
    machine: {
      cpus: availableParallelism(),
      note: 'shared by other jobs while measuring; compare ratios, not absolutes',
    },
  };
  console.log(JSON.stringify(summary.ratios));
  writeResult('api', summary);
  await Promise.all([api.stop(), memoryApi.stop(), baseline.stop()]);
  await pool.end();
  await chain.stop();
}

/** addHeavyAccount gives one account `ACCOUNT_TXS` spends spread over the stored heights (synthetic rows, real layout). */
async function addHeavyAccount(pool: ReturnType<typeof createPool>, account: string, top: number): Promise<void> {
  // each spend stored as the populator stores it (chain/stored-tx.ts: the signed tx's bytes), made here in chunks
  const signature = encode('sg', Buffer.alloc(64, 0x5b));
  for (let from = 0; from < ACCOUNT_TXS; from += 10_000) {
    const is = Array.from({ length: Math.min(10_000, ACCOUNT_TXS - from) }, (_, k) => from + k);
    const stored = is.map((i) =>
      storedTxColumns({
        tx: {
          type: 'SpendTx',
          version: 1,
          sender_id: account,
          recipient_id: account,
          amount: i,
          fee: 20000,
          nonce: i + 1,
          payload: 'ba_Xfbg4g==',
        },
        signatures: [signature],
      }),
    );
    await pool.query(
      `INSERT INTO transactions (hash, height, micro_index, tx_index, micro_time_ms, tx_type, fee, size, signed)
       SELECT 'th_bench' || i, 1 + i % $2, 1000, i / $2, 0, ${txTypeCode('SpendTx')}, 20000, s.size, s.signed
         FROM unnest($1::int[], $3::int[], $4::bytea[]) AS s(i, size, signed)`,
      [is, top, stored.map((c) => c.size), stored.map((c) => Buffer.from(c.signed))],
    );
  }
  await pool.query(
    `INSERT INTO account_transactions (account, height, micro_index, tx_index, tx_type, fields)
     SELECT $1, 1 + i % $2, 1000, i / $2, $4, 'sender_id recipient_id' FROM generate_series(0, $3 - 1) AS i`,
    [await accountNumber(pool, account), top, ACCOUNT_TXS, txTypeCode('SpendTx')],
  );
  // The test server commits asynchronously; VACUUM can mark pages all-visible (index-only scans)
  // only once the commits are flushed, which the WAL writer does within a few hundred ms.
  await pool.query('SELECT pg_sleep(1)');
  await pool.query('VACUUM ANALYZE account_transactions');
  await pool.query('VACUUM ANALYZE transactions');
}

/**
 * addYearOfTransactionStats gives the transactions series a count on each of the 365 days up to the
 * chain's last (synthetic per-day rows, real layout: the triggers fill the intervals) and returns
 * the first of those days; the chain itself spans far fewer days than a year of generations.
 */
async function addYearOfTransactionStats(pool: ReturnType<typeof createPool>): Promise<string> {
  const { rows } = await pool.query<{ first: string }>(
    `WITH last AS (SELECT floor(max(time_ms) / 86400000)::int AS day FROM key_blocks)
     INSERT INTO stats_series_counts (height, series, day, count)
     SELECT 0, 'transactions', d, 4800 FROM last, generate_series(last.day - 364, last.day) AS d
     ON CONFLICT (height, series, day) DO NOTHING
     RETURNING to_char(date '1970-01-01' + day, 'YYYY-MM-DD') AS first`,
  );
  return rows.map((r) => r.first).sort()[0]!;
}

/** cursorAt is the keyset cursor that continues after the first `skip` rows of the account's list. */
async function cursorAt(pool: ReturnType<typeof createPool>, account: string, skip: number): Promise<string> {
  const { rows } = await pool.query<{ c: string }>(
    `SELECT height || '-' || micro_index || '-' || tx_index AS c FROM account_transactions WHERE account = $1
      ORDER BY height DESC, micro_index DESC, tx_index DESC OFFSET $2 LIMIT 1`,
    [await accountNumber(pool, account), skip - 1],
  );
  return rows[0]!.c;
}

await main();
