/**
 * @module Overload benchmark (issue 27): `mdw -s` over a devnode chain loaded by the real populator, under a burst
 * of BENCH_CONNECTIONS (default 2000) connections on six heavy ae_mdw endpoints for BENCH_SECONDS (default 30),
 * while a prober asks /readyz and /mdw/v3/status; then twelve hostile statistics ranges while it asks /healthz.
 * Prints the answers by status, the probes' latencies (the status also for 10 s before the burst, unloaded: the ratio),
 * the server's RSS broken down (bench/memory.lib.ts) before, after and a minute after the burst, its event-loop delay
 * over the burst and the CPU each process had of the machine's cores, and writes bench/results/overload.json.
 *
 *   make bench ONLY=overload      (BENCH_GENERATIONS, default 3000, sets the chain length)
 *
 * The server runs as a pod does (the operator's NODE_OPTIONS for servers, the image's NODE_ENV and malloc setting);
 * BENCH_SERVER_NODE_OPTIONS adds Node flags (e.g. "--cpu-prof --cpu-prof-dir=DIR" to profile it).
 * Traffic goes to 127.0.0.1 only and is bounded in time (BENCH_SECONDS) and count (BENCH_MAX_REQUESTS, default
 * 2,000,000). What it checks, as figures (not assertions): no 500 at all, /readyz 200 throughout, the status's p99
 * under 50 ms while the heavy requests run, the server's RSS within 100 MB of its start a minute after the burst
 * (a minute of light traffic: /mdw/v3/transactions?limit=100 ten times a second),
 * and within 100 MB during the hostile ranges with /healthz under 100 ms meanwhile. Last, a GraphQL mix (issue 41):
 * BENCH_GRAPHQL_CONNECTIONS (default 500) connections, at most BENCH_GRAPHQL_REQUESTS (default 1500) requests, round
 * robin over four heavy GraphQL operations (cost 101 to 804) and two of the heavy REST pages, while the status is
 * probed: every answer should come within the admission's 5 s of its arrival (a 200, or a 503 with Retry-After), and
 * the answers later than that are counted by status.
 */
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import prom from 'prom-client';
import { Pool as HttpPool } from 'undici';
import { ANSWER_BOUND_MS } from '../src/api/http/admission.ts';
import { loadConfig } from '../src/config/middleware.ts';
import { startPopulator } from '../src/indexer/sync/populator.ts';
import { createLogger } from '../src/base/log.ts';
import { SERVER_NODE_OPTIONS } from '../src/operator/specs/server-deployment.ts';
import { createTestDatabase, stopTestServer } from '../test/support/postgres.ts';
import type { BurstOrder, BurstResult } from './burst.lib.ts';
import { killChildrenOnExit, nodeFilesArgs, startDevnodeProcess, startMdwServer, track } from './http.lib.ts';
import { memoryBreakdown, metricValue, type MemoryBreakdown } from './memory.lib.ts';
import { machineBusySeconds, mainThreadSeconds } from './process-cpu.lib.ts';
import { writeResult } from './results.lib.ts';

const GENERATIONS = Number(process.env.BENCH_GENERATIONS ?? 3000);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 2000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 30);
const MAX_REQUESTS = Number(process.env.BENCH_MAX_REQUESTS ?? 2_000_000);
const GRAPHQL_CONNECTIONS = Number(process.env.BENCH_GRAPHQL_CONNECTIONS ?? 500);
const GRAPHQL_REQUESTS = Number(process.env.BENCH_GRAPHQL_REQUESTS ?? 1500);
/** heavy GraphQL operations, each asked with GET: a page of 100 transactions with their blocks (cost 201), two and four of them, 100 key blocks */
const PAGE_WITH_BLOCKS = 'transactions(limit: 100) { data { hash tx block { hash height } } }';
const GRAPHQL_HEAVY = [
  `{ ${PAGE_WITH_BLOCKS} }`,
  `{ a: ${PAGE_WITH_BLOCKS} b: transactions(limit: 100, direction: FORWARD) { data { hash } } }`,
  `{ ${['a', 'b', 'c', 'd'].map((alias) => `${alias}: ${PAGE_WITH_BLOCKS}`).join(' ')} }`,
  '{ keyBlocks(limit: 100) { data { hash height } } }',
].map((query) => `/mdw/graphql?query=${encodeURIComponent(query)}`);
/** how long after the burst the server's RSS is read again (BENCH_SETTLE_SECONDS, default a minute) */
const SETTLE_MS = Number(process.env.BENCH_SETTLE_SECONDS ?? 60) * 1000;
/** how long the status is asked before the burst, with nothing else running on the server */
const UNLOADED_MS = 10_000;
/** the server's NODE_OPTIONS: a pod's (the module comment; startMdwServer gives it the image's environment) */
const NODE_OPTIONS = `${SERVER_NODE_OPTIONS} ${process.env.BENCH_SERVER_NODE_OPTIONS ?? ''}`.trim();
const log = createLogger({ logLevel: 'silent', logPretty: false, logDir: undefined }).log;

/** rssMb is a process's resident set, in MB, from /proc. */
function rssMb(pid: number): number {
  const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return Math.round(Number(kb) / 1024);
}

/** ServerFigures are what the server's /metrics and /proc say of it at one moment (the module comment of memory.lib). */
interface ServerFigures {
  readonly memory: MemoryBreakdown;
  /** the event loop's delay since the last scrape (prom-client's monitorEventLoopDelay, reset at each scrape), ms */
  readonly loopDelayMs: { readonly p50: number; readonly p90: number; readonly p99: number; readonly max: number };
  /** CPU seconds of the whole process so far, and of the garbage collector by kind */
  readonly cpuSeconds: number;
  readonly gcSeconds: Record<string, number>;
  /** the main thread's time on a core and waiting for one so far (/proc/<pid>/schedstat) */
  readonly mainThread: { readonly running: number; readonly waiting: number } | undefined;
  /** the collections the server ran once a burst was over, and the event loop's seconds in them */
  readonly heapTrims: { readonly count: number; readonly seconds: number };
}

/** seconds rounds seconds for the output. */
const seconds = (s: number): number => Number(s.toFixed(2));

/** serverFigures scrapes the server's /metrics once (which also starts its next event-loop delay interval). */
async function serverFigures(base: string, pid: number): Promise<ServerFigures> {
  const text = await (await fetch(`${base}/metrics`)).text();
  const ms = (name: string): number => Number((metricValue(text, name) * 1000).toFixed(1));
  const gcSeconds = Object.fromEntries(
    [...text.matchAll(/^nodejs_gc_duration_seconds_sum\{kind="([^"]+)"\} (\S+)$/gm)].map((m) => [m[1]!, Number(m[2])]),
  );
  return {
    memory: memoryBreakdown(text, pid),
    loopDelayMs: {
      p50: ms('nodejs_eventloop_lag_p50_seconds'),
      p90: ms('nodejs_eventloop_lag_p90_seconds'),
      p99: ms('nodejs_eventloop_lag_p99_seconds'),
      max: ms('nodejs_eventloop_lag_max_seconds'),
    },
    cpuSeconds: metricValue(text, 'process_cpu_seconds_total'),
    gcSeconds,
    mainThread: mainThreadSeconds(pid),
    heapTrims: {
      count: metricValue(text, 'mdw_api_heap_trims_total'),
      seconds: seconds(metricValue(text, 'mdw_api_heap_trim_seconds_total')),
    },
  };
}

/**
 * slowerInServer counts the answers of the routes a label matches that took the server more than 5 s (its duration
 * histogram's count less its 5 s bucket): the late answers as the server saw them, from its first reading of the
 * request, without the time the load generator and the kernel held them.
 */
function slowerInServer(text: string, route: RegExp): number {
  let slower = 0;
  for (const [, le, label, value] of text.matchAll(
    /^mdw_api_http_request_duration_seconds_(?:bucket\{le="([^"]+)",|count\{)method="GET",route="([^"]+)"\} (\S+)$/gm,
  ))
    if (route.test(label!) && (le === undefined || le === '5'))
      slower += le === undefined ? Number(value) : -Number(value);
  return slower;
}

/** percentile of sorted latencies in ms. */
function percentile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return 0;
  return Number(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!.toFixed(1));
}

/** Probe asks one path every `everyMs` on a connection of its own until stopped: its statuses and latencies. */
class Probe {
  readonly #client: HttpPool;
  readonly #path: string;
  readonly #everyMs: number;
  readonly statuses = new Map<number, number>();
  readonly latencies: number[] = [];
  #running: Promise<void> | undefined;
  #stopped = false;

  constructor(base: string, path: string, everyMs: number) {
    this.#client = new HttpPool(base, { connections: 1 });
    this.#path = path;
    this.#everyMs = everyMs;
  }

  start(): void {
    this.#running = (async () => {
      while (!this.#stopped) {
        const t = performance.now();
        const status = await this.#client.request({ method: 'GET', path: this.#path }).then(
          async (res) => (await res.body.text(), res.statusCode),
          () => 0,
        );
        this.latencies.push(performance.now() - t);
        this.statuses.set(status, (this.statuses.get(status) ?? 0) + 1);
        await sleep(this.#everyMs);
      }
    })();
  }

  async stop(): Promise<{ statuses: Record<number, number>; p50Ms: number; p99Ms: number; maxMs: number }> {
    this.#stopped = true;
    await this.#running;
    await this.#client.close();
    const sorted = [...this.latencies].sort((a, b) => a - b);
    return {
      statuses: Object.fromEntries(this.statuses),
      p50Ms: percentile(sorted, 0.5),
      p99Ms: percentile(sorted, 0.99),
      maxMs: percentile(sorted, 1),
    };
  }
}

/** burst runs bench/burst.lib.ts in a process of its own and waits for its answers by status. */
async function burst(order: BurstOrder): Promise<BurstResult> {
  const child = track(
    fork(new URL('burst.lib.ts', import.meta.url).pathname, [JSON.stringify(order)], { stdio: 'inherit' }),
  );
  const [result] = (await once(child, 'message')) as [BurstResult];
  return result;
}

async function main(): Promise<void> {
  killChildrenOnExit();
  const devnode = await startDevnodeProcess([
    ...['--generate', String(GENERATIONS), '--seed', 'bench-overload'],
    ...nodeFilesArgs(),
  ]);
  const db = await createTestDatabase();
  const env = { DATABASE_URL: db.url, DATABASE_SCHEMA: 'mdw_bench_overload', NODE_URL: devnode.url };
  // the populator configured as a deployment on the devnode's chain (DevnodeChild)
  const cfg = loadConfig({ ...devnode.deployment, ...env });
  const populator = await startPopulator({ cfg, log, registry: new prom.Registry() });
  await populator.synced();
  await populator.stop();
  const server = await startMdwServer({ ...env, HTTP_HOST: '127.0.0.1' }, NODE_OPTIONS);
  // the busiest sender of the newest transactions: its activities are the issue's heavy request
  const newest = (await (await fetch(`${server.url}/mdw/v3/transactions?limit=100`)).json()) as {
    data: { tx: { sender_id?: string } }[];
  };
  const senders = new Map<string, number>();
  for (const t of newest.data) if (t.tx.sender_id) senders.set(t.tx.sender_id, (senders.get(t.tx.sender_id) ?? 0) + 1);
  const busy = [...senders].sort((a, b) => b[1] - a[1])[0]![0];
  const heavy = [
    `/mdw/v3/accounts/${busy}/activities?limit=100`,
    `/mdw/v3/transactions?account=${busy}&limit=100`,
    '/mdw/v3/transactions?limit=100',
    '/mdw/v3/key-blocks?limit=100',
    '/mdw/v3/stats/blocks?max_start_date=9999-12-30&limit=1000',
    '/mdw/v3/stats/delta?limit=1000',
  ];
  for (const path of heavy) await (await fetch(`${server.url}${path}`)).text();
  await (await fetch(`${server.url}/mdw/v3/status`)).text();

  // the status unloaded, in the same run: what the burst's figure is a ratio to (the machine is shared)
  const unloaded = new Probe(server.url, '/mdw/v3/status', 50);
  unloaded.start();
  await sleep(UNLOADED_MS);
  const statusUnloaded = await unloaded.stop();
  const rssStart = rssMb(server.pid);
  const start = await serverFigures(server.url, server.pid);
  const [busyStart, loadStart] = [machineBusySeconds(), loadavg()[0]!];
  const ready = new Probe(server.url, '/readyz', 200);
  const status = new Probe(server.url, '/mdw/v3/status', 50);
  ready.start();
  status.start();
  const answers = await burst({
    base: server.url,
    paths: heavy,
    connections: CONNECTIONS,
    seconds: SECONDS,
    maxRequests: MAX_REQUESTS,
    lateMs: ANSWER_BOUND_MS,
  });
  const rssAfterBurst = rssMb(server.pid);
  const afterBurst = await serverFigures(server.url, server.pid);
  const machineBusy = machineBusySeconds() - busyStart;
  const [readyz, statusLatency] = [await ready.stop(), await status.stop()];
  // the minute after: the light traffic a server keeps getting (which also lets its heap be collected)
  const trickle = new Probe(server.url, '/mdw/v3/transactions?limit=100', 100);
  trickle.start();
  await sleep(SETTLE_MS);
  const afterwards = await trickle.stop();
  const rssSettled = rssMb(server.pid);
  const settled = await serverFigures(server.url, server.pid);

  // Twelve distinct hostile ranges, asked all at once, each of every series once.
  const series = ['blocks', 'transactions', 'names', 'contracts', 'aex9-transfers', 'total-accounts'];
  const hostile = Array.from(
    { length: 12 },
    (_, i) => `/mdw/v3/stats/${series[i % series.length]}?min_start_date=${1970 + i}-01-01&max_start_date=9999-12-30`,
  );
  const rssBeforeHostile = rssMb(server.pid);
  const health = new Probe(server.url, '/healthz', 20);
  health.start();
  let rssPeakHostile = rssBeforeHostile;
  const hostileStatuses = await Promise.all(
    hostile.map(async (path) => {
      const res = await fetch(`${server.url}${path}`);
      await res.text();
      rssPeakHostile = Math.max(rssPeakHostile, rssMb(server.pid));
      return res.status;
    }),
  );
  await sleep(1000);
  const healthz = await health.stop();
  const rssAfterHostile = rssMb(server.pid);

  // GraphQL's heavy operations in the same turns as REST's heavy pages (bench/burst.lib.ts times each answer)
  for (const path of GRAPHQL_HEAVY) {
    const res = await fetch(`${server.url}${path}`);
    const text = await res.text();
    if (res.status !== 200 || text.includes('"errors"')) throw new Error(`${path}: ${res.status} ${text}`);
  }
  const loadBeforeGraphql = loadavg()[0]!;
  const metricsBeforeGraphql = await (await fetch(`${server.url}/metrics`)).text();
  const graphqlStatus = new Probe(server.url, '/mdw/v3/status', 50);
  graphqlStatus.start();
  const graphqlAnswers = await burst({
    base: server.url,
    paths: [...GRAPHQL_HEAVY, heavy[0]!, heavy[2]!],
    connections: GRAPHQL_CONNECTIONS,
    seconds: SECONDS,
    maxRequests: GRAPHQL_REQUESTS,
    lateMs: ANSWER_BOUND_MS,
  });
  const graphqlStatusLatency = await graphqlStatus.stop();
  const metricsAfterGraphql = await (await fetch(`${server.url}/metrics`)).text();
  const slowerDuringGraphql = (route: RegExp): number =>
    slowerInServer(metricsAfterGraphql, route) - slowerInServer(metricsBeforeGraphql, route);

  const result = {
    generations: GENERATIONS,
    connections: CONNECTIONS,
    heavy,
    burst: { ...answers, perSecond: Math.round(answers.requests / answers.seconds) },
    // who had the two cores during the burst: the machine's load, the server's main thread, the load generator
    cores: {
      count: cpus().length,
      loadAverage: { start: loadStart, end: loadavg()[0]! },
      machineBusySeconds: seconds(machineBusy),
      serverCpuSeconds: seconds(afterBurst.cpuSeconds - start.cpuSeconds),
      serverMainThread: start.mainThread &&
        afterBurst.mainThread && {
          running: seconds(afterBurst.mainThread.running - start.mainThread.running),
          waiting: seconds(afterBurst.mainThread.waiting - start.mainThread.waiting),
        },
      serverGcSeconds: Object.fromEntries(
        Object.entries(afterBurst.gcSeconds).map(([kind, s]) => [kind, seconds(s - (start.gcSeconds[kind] ?? 0))]),
      ),
      generatorCpuSeconds: answers.cpuSeconds,
    },
    serverLoopDelayMs: afterBurst.loopDelayMs,
    readyz,
    status: statusLatency,
    statusUnloaded,
    statusP99Ratio: Number((statusLatency.p99Ms / statusUnloaded.p99Ms).toFixed(1)),
    rssMb: { start: rssStart, afterBurst: rssAfterBurst, minuteLater: rssSettled },
    memoryMb: { start: start.memory, afterBurst: afterBurst.memory, minuteLater: settled.memory },
    heapTrimsInTheMinute: {
      count: settled.heapTrims.count - afterBurst.heapTrims.count,
      seconds: seconds(settled.heapTrims.seconds - afterBurst.heapTrims.seconds),
    },
    afterwards,
    hostile: {
      statuses: hostileStatuses,
      healthz,
      rssMb: { before: rssBeforeHostile, peak: rssPeakHostile, after: rssAfterHostile },
    },
    graphqlMix: {
      connections: GRAPHQL_CONNECTIONS,
      paths: GRAPHQL_HEAVY.length + 2,
      answerBoundMs: ANSWER_BOUND_MS,
      loadAverage: { start: loadBeforeGraphql, end: loadavg()[0]! },
      ...graphqlAnswers,
      status: graphqlStatusLatency,
      slowerThan5sInServer: {
        graphql: slowerDuringGraphql(/^\/mdw\/graphql/),
        rest: slowerDuringGraphql(/^\/mdw\/v3\//),
      },
    },
  };
  console.log(JSON.stringify(result, null, 2));
  writeResult('overload', result);
  await server.stop();
  await devnode.stop();
  await db.drop();
  await stopTestServer();
}

await main();
