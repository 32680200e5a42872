/**
 * @module GraphQL benchmark: a page of 100 transactions asked of /mdw/graphql, alone and with their blocks, against the
 * same page of /mdw/v3/transactions, in one run on the 20k-generation devnode chain loaded by the populator. Prints
 * the numbers and writes bench/results/graphql.json. The page with blocks is also set against what a REST client asks
 * for the same content: the page, then each distinct micro block it names at once (one visit; its server times are
 * those of each request).
 *
 *   node bench/graphql.ts
 *
 * The server is `mdw -s` in its own process with a pod's Node flags and the image's environment, as in production, on
 * a core of its own (http.lib.ts reserveServerCore; BENCH_SERVER_CORE=none shares the cores); this process generates
 * the chain's load (undici) and, before measuring, runs the devnode and the populator, on the other cores. The
 * pages start at 1000 random positions of the chain (REST cursors, and the GraphQL cursors of the same positions),
 * read one after another for latency, then 16 in flight; each latency as the client measured it and as the server
 * saw it (from the request's headers to the answer's last byte, bench/server-timing.hook.ts). BENCH_GENERATIONS
 * (default 20000) sets the chain length, BENCH_REQUESTS (default 3000) the requests per scenario, BENCH_CONCURRENCY
 * (default 16) the requests in flight of the second half and of the warm-up; BENCH_BASELINE_MDW
 * another tree's bin/mdw.js, whose server is measured beside this tree's scenario by scenario (an A/B run), and
 * BENCH_CHAIN_MDW the tree whose devnode generates the chain (an older server's, for a chain it can answer);
 * BENCH_SERVER_NODE_OPTIONS and BENCH_SERVER_NODE_ARGS the servers' extra Node flags (`--cpu-prof`; `--trace-gc`,
 * which NODE_OPTIONS refuses), BENCH_BASELINE_NODE_OPTIONS the baseline's alone (with BENCH_BASELINE_MDW=bin/mdw.js,
 * an A/B of flags). Each server's measured scenario starts after an unmeasured tenth of its requests.
 */
import { availableParallelism } from 'node:os';
import { encodeCursor, listTag } from '../src/api/mdw/graphql/cursor.ts';
import { createPool } from '../src/db/connection/pool.ts';
import { createLogger } from '../src/base/log.ts';
import { SERVER_NODE_OPTIONS } from '../src/operator/specs/server-deployment.ts';
import {
  cpuMicros,
  getOf,
  killChildrenOnExit,
  loadVisits,
  percentile,
  reserveServerCore,
  serverTimes,
  startMdwServer,
  type Child,
  type Result,
  type Visit,
} from './http.lib.ts';
import { loadedChain } from './loaded-chain.lib.ts';
import { writeResult } from './results.lib.ts';

const GENERATIONS = Number(process.env.BENCH_GENERATIONS ?? 20_000);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 3000);
/** the servers' Node flags: a pod's (the operator's), and BENCH_SERVER_NODE_OPTIONS (`--cpu-prof`) */
const NODE_OPTIONS = `${SERVER_NODE_OPTIONS} ${process.env.BENCH_SERVER_NODE_OPTIONS ?? ''}`.trim();
/** the baseline server's, where BENCH_BASELINE_NODE_OPTIONS adds others (an A/B of flags: the same tree twice) */
const BASELINE_NODE_OPTIONS = `${NODE_OPTIONS} ${process.env.BENCH_BASELINE_NODE_OPTIONS ?? ''}`.trim();
/** Node flags NODE_OPTIONS refuses, for both servers (`--trace-gc`: each collection on the bench's output) */
const NODE_ARGS = (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean);
/** another tree's bin/mdw.js: its server is measured too, scenario by scenario beside this tree's (an A/B run) */
const BASELINE_MDW = process.env.BENCH_BASELINE_MDW;
/** the requests in flight of the second half (BENCH_CONCURRENCY=1 on a machine too busy for 16 within the 5 s turn) */
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const PAGE_LIMIT = 100;
const SCHEMA = 'mdw_bench_graphql';
const log = createLogger({ logLevel: 'silent', logPretty: false, logDir: undefined }).log;

const TX_FIELDS = 'hash blockHash blockHeight encodedTx microIndex microTime signatures tx txIndex';
const BLOCK_FIELDS = 'hash height time gas transactionsCount microBlockIndex prevHash stateHash txsHash';

async function main(): Promise<void> {
  killChildrenOnExit();
  const serverCore = reserveServerCore() ?? null;
  const chain = await loadedChain(GENERATIONS, 'bench-api', SCHEMA);
  const { env, generatedMs, loadedMs } = chain;
  const pool = createPool({ databaseUrl: env.DATABASE_URL!, schema: SCHEMA, max: 2 }, log);
  const positions = (
    await pool.query<{ c: string }>(
      `SELECT height || '-' || micro_index || '-' || tx_index AS c FROM transactions ORDER BY random() LIMIT 1000`,
    )
  ).rows.map((r) => r.c);
  await pool.end();
  const serverEnv = { ...env, API_CACHE_MAX_BYTES: '0' };
  // the baseline first, so that neither server has the machine to itself while the other one starts
  const servers: [string, Child][] = [];
  if (BASELINE_MDW)
    servers.push([
      '_baseline',
      await startMdwServer(serverEnv, BASELINE_NODE_OPTIONS, { mdw: BASELINE_MDW, nodeArgs: NODE_ARGS, timed: true }),
    ]);
  servers.push(['', await startMdwServer(serverEnv, NODE_OPTIONS, { nodeArgs: NODE_ARGS, timed: true })]);
  console.log(`servers (pid): ${servers.map(([suffix, api]) => `${suffix || 'this tree'} ${api.pid}`).join(', ')}`);
  const pick = (): string => positions[Math.floor(Math.random() * positions.length)]!;
  const tag = listTag('transactions', {});
  const graphql = (selection: string) => (): string => {
    const cursor = encodeCursor(tag, { cursor: pick(), rev: false });
    const query = `{ transactions(limit: ${PAGE_LIMIT}, cursor: "${cursor}") { data { ${selection} } nextCursor } }`;
    return `/mdw/graphql?query=${encodeURIComponent(query)}`;
  };
  const restPage = (): string => `/mdw/v3/transactions?limit=${PAGE_LIMIT}&cursor=${pick()}`;
  const graphqlPages: [string, () => string][] = [
    ['graphql_transactions_page', graphql(TX_FIELDS)],
    ['graphql_transactions_page_with_blocks', graphql(`${TX_FIELDS} block { ${BLOCK_FIELDS} }`)],
    [
      'graphql_transactions_page_with_blocks_and_key_blocks',
      graphql(`${TX_FIELDS} block { ${BLOCK_FIELDS} keyBlock { hash height miner beneficiaryReward } }`),
    ],
  ];
  // what a REST client does for the page with blocks: the page, then each distinct micro block it names, at once
  const blocksAsked = { pages: 0, blocks: 0 };
  const restPageAndBlocks: Visit = async (get) => {
    const page = JSON.parse(await get(restPage())) as { data: { block_hash: string }[] };
    const hashes = new Set(page.data.map((tx) => tx.block_hash));
    blocksAsked.pages++;
    blocksAsked.blocks += hashes.size;
    await Promise.all([...hashes].map((hash) => get(`/mdw/v3/micro-blocks/${hash}`)));
  };
  const scenarios: [string, Visit][] = [
    ['rest_v3_transactions_page', getOf(restPage)],
    ...graphqlPages.map(([name, path]): [string, Visit] => [name, getOf(path)]),
    ['rest_v3_transactions_page_and_its_micro_blocks', restPageAndBlocks],
  ];
  // an unmeasured warm-up of each (the JIT, the named statements of every pooled connection); then a check
  // that the GraphQL answers are pages of 100 without errors
  for (const [, api] of servers) {
    for (const [, visit] of scenarios) await loadVisits(api.url, visit, Math.ceil(REQUESTS / 10), CONCURRENCY);
    for (const [name, path] of graphqlPages) {
      const body = (await (await fetch(`${api.url}${path()}`)).json()) as {
        data?: { transactions: { data: unknown[] } };
        errors?: unknown;
      };
      if (body.errors || body.data?.transactions.data.length !== PAGE_LIMIT)
        throw new Error(`${name}: ${JSON.stringify(body.errors ?? 'not a page of 100')}`);
    }
  }
  const results: Record<string, Result & { serverCpuUsPerRequest: number }> = {};
  for (const [mode, concurrency, total] of [
    ['sequential', 1, Math.ceil(REQUESTS / 4)],
    ['in_flight', CONCURRENCY, REQUESTS],
  ] as const) {
    for (const [name, visit] of scenarios) {
      for (const [suffix, api] of servers) {
        // a server idle while the others ran may have given its heap back (HeapTrim), and the heap's regrowth costs its
        // next requests more CPU (1.4-1.8 x in bench/requests-ab.ts): it grows back here, unmeasured
        await loadVisits(api.url, visit, Math.ceil(total / 10), concurrency);
        await serverTimes(api);
        const cpuBefore = cpuMicros(api.pid);
        const r = await loadVisits(api.url, visit, total, concurrency);
        const cpu = Math.round((cpuMicros(api.pid) - cpuBefore) / (r.requests + 1));
        const times = await serverTimes(api);
        const key = `${name}_${mode}${suffix}`;
        results[key] = {
          ...r,
          serverP50Ms: percentile(times, 0.5),
          serverP99Ms: percentile(times, 0.99),
          serverCpuUsPerRequest: cpu,
        };
        console.log(
          `${key.padEnd(68)} ${r.perSecond.toFixed(0).padStart(4)} req/s   p50 ${r.p50Ms.toFixed(2)} p99 ${r.p99Ms.toFixed(2)} ms   in the server ${percentile(times, 0.5).toFixed(2)} / ${percentile(times, 0.99).toFixed(2)} ms   CPU ${cpu} us/req   load ${r.load1.toFixed(1)}`,
        );
      }
    }
  }
  // the two questions of issue 42: the same content, and the page with blocks against the REST requests it replaces
  console.log(`the REST client asked ${(blocksAsked.blocks / blocksAsked.pages).toFixed(1)} micro blocks per page`);
  const cpuOf = (key: string): number => results[key]!.serverCpuUsPerRequest;
  for (const mode of ['sequential', 'in_flight'])
    for (const [suffix] of servers) {
      const of = (name: string): number => cpuOf(`${name}_${mode}${suffix}`);
      console.log(
        `server CPU ${mode}${suffix}: GraphQL ÷ REST, the same page ${(of('graphql_transactions_page') / of('rest_v3_transactions_page')).toFixed(2)}; the page with blocks ÷ the REST page and its micro blocks ${(of('graphql_transactions_page_with_blocks') / of('rest_v3_transactions_page_and_its_micro_blocks')).toFixed(2)}`,
      );
    }
  writeResult('graphql', {
    date: new Date().toISOString(),
    setup: {
      generations: GENERATIONS,
      pageLimit: PAGE_LIMIT,
      requests: REQUESTS,
      baseline: BASELINE_MDW ?? null,
      nodeOptions: NODE_OPTIONS,
      baselineNodeOptions: BASELINE_MDW ? BASELINE_NODE_OPTIONS : null,
      concurrency: CONCURRENCY,
      serverCore,
      generatedMs: Math.round(generatedMs),
      loadedMs: Math.round(loadedMs),
    },
    results,
    targets: { graphqlTransactionsWithBlocksP99Ms: 20 },
    machine: { cpus: availableParallelism(), note: 'shared by other jobs while measuring; compare within a run' },
  });
  await Promise.all(servers.map(([, api]) => api.stop()));
  await chain.stop();
}

await main();
