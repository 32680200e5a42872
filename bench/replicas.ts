/**
 * @module Read replicas benchmark: one server reading the primary against one reading a streaming standby of it
 * (DATABASE_READ_URLS), over a chain loaded from a devnode by the real populator. Prints the numbers and writes
 * bench/results/replicas.json.
 *
 *   node bench/replicas.ts      (make bench ONLY=replicas)
 *
 * - Read throughput: the same read mix (generations and transactions of the node's /v2 without the response cache,
 *   ae_mdw's transaction list) asked of each server in interleaved rounds; the ratio standby/primary, per round.
 * - The primary's CPU per read: PostgreSQL's CPU (postmaster and backends, /proc) over each server's rounds, per
 *   request, the populator stopped; with the server on the standby the primary serves only its LISTEN connection and
 *   the WAL position reads (their cost with both servers idle is reported too), and the standby's CPU per read is
 *   reported beside it.
 * - Delivery latency added by waiting for replay: the devnode mines a key block, the running populator loads it and
 *   notifies; a websocket client on each server notes when the key block's event arrives. The difference
 *   per block (standby minus primary) is what holding the notification until the standby has replayed it costs.
 * Both PostgreSQL servers, both mdw servers, the devnode and this load generator share the machine's cores: compare
 * the ratios of one run, not absolute rates. BENCH_GENERATIONS (default 3000) sets the chain length, BENCH_REQUESTS
 * (default 3000) the requests per round, BENCH_ROUNDS (default 3) the rounds, BENCH_BLOCKS (default 40) the blocks
 * mined for the latency.
 */
import { cpus } from 'node:os';
import { performance } from 'node:perf_hooks';
import prom from 'prom-client';
import WebSocket from 'ws';
import { parseJson } from '../src/chain/json.ts';
import { loadConfig } from '../src/config/middleware.ts';
import { createPool } from '../src/db/connection/pool.ts';
import { startPopulator } from '../src/indexer/sync/populator.ts';
import { createLogger } from '../src/base/log.ts';
import { startReplicatedPostgres } from '../test/support/replica.ts';
import {
  killChildrenOnExit,
  load,
  median,
  nodeFilesArgs,
  startDevnodeProcess,
  startMdwServer,
  type Child,
} from './http.lib.ts';
import { postgresCpuReader } from './process-cpu.lib.ts';
import { writeResult } from './results.lib.ts';

const GENERATIONS = Number(process.env.BENCH_GENERATIONS ?? 3000);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 3000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const BLOCKS = Number(process.env.BENCH_BLOCKS ?? 40);
const CONCURRENCY = 16;
const SCHEMA = 'mdw_bench';
const log = createLogger({ logLevel: 'silent', logPretty: false, logDir: undefined }).log;

async function main(): Promise<void> {
  killChildrenOnExit();
  const pg = await startReplicatedPostgres({ settings: ['max_connections=300'] });
  const devnode = await startDevnodeProcess([
    ...['--generate', String(GENERATIONS), '--seed', 'bench-replicas'],
    ...nodeFilesArgs(),
  ]);
  const env = {
    DATABASE_URL: pg.primaryUrl,
    DATABASE_SCHEMA: SCHEMA,
    NODE_URL: devnode.url,
    POLL_INTERVAL_MS: '50',
    DATABASE_POOL_SIZE: '10',
    API_CACHE_MAX_BYTES: '0',
  };
  // the populator configured as a deployment on the devnode's chain (DevnodeChild); the servers need none of it
  const cfg = loadConfig({ ...devnode.deployment, ...env });
  const loading = await startPopulator({ cfg, log, registry: new prom.Registry() });
  await loading.synced();
  // stopped while reads are measured: its heartbeats would count as the primary's CPU
  await loading.stop();
  await pg.caughtUp(120_000);
  const pool = createPool({ databaseUrl: pg.primaryUrl, schema: SCHEMA, max: 2 }, log);
  const top = (await pool.query<{ h: number }>('SELECT max(height) AS h FROM key_blocks')).rows[0]!.h;
  const txs = (await pool.query<{ hash: string }>('SELECT hash FROM transactions ORDER BY random() LIMIT 1000')).rows;
  await pool.end();
  console.log(`chain of ${top} generations, ${txs.length} sampled transactions; the standby caught up`);

  const onPrimary = await startMdwServer(env);
  const onStandby = await startMdwServer({ ...env, DATABASE_READ_URLS: pg.replicaUrl });
  const primaryCpu = await postgresCpuReader(pg.primaryUrl);
  const standbyCpu = await postgresCpuReader(pg.replicaUrl);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)]!;
  const mix = [
    () => `/v2/generations/height/${1 + Math.floor(Math.random() * top)}`,
    () => `/v2/transactions/${pick(txs).hash}`,
    () => `/mdw/v3/transactions?limit=10&scope=gen:1-${1 + Math.floor(Math.random() * top)}`,
  ];
  const path = (): string => pick(mix)();
  // unmeasured warm-up of both: the JIT and every pooled connection's prepared statements
  for (const server of [onPrimary, onStandby]) await load(server.url, path, REQUESTS, CONCURRENCY);

  // what the two idle servers cost the primary: LISTEN checks, and the standby's server reading the WAL position
  const [idle0, idleStart] = [primaryCpu(), performance.now()];
  await new Promise((resolve) => setTimeout(resolve, 5000));
  const idlePrimaryCpuPercent = Number(
    (((primaryCpu() - idle0) * 1000 * 100) / (performance.now() - idleStart)).toFixed(2),
  );
  console.log(`idle: the primary's PostgreSQL at ${idlePrimaryCpuPercent}% of a core`);

  const rounds: { primary: Measured; standby: Measured; ratio: number }[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const primary = await measure(onPrimary, path, primaryCpu, standbyCpu);
    const standby = await measure(onStandby, path, primaryCpu, standbyCpu);
    rounds.push({ primary, standby, ratio: Number((standby.perSecond / primary.perSecond).toFixed(3)) });
    console.log(
      `round ${round + 1}: primary ${primary.perSecond}/s (primary's PostgreSQL ${primary.primaryCpuMsPerRead} ms CPU per read), ` +
        `standby ${standby.perSecond}/s (primary's ${standby.primaryCpuMsPerRead} ms, standby's ${standby.standbyCpuMsPerRead} ms per read): ratio ${rounds.at(-1)!.ratio}`,
    );
  }

  const populator = await startPopulator({ cfg, log, registry: new prom.Registry() });
  await populator.synced();
  const latency = await deliveryLatency(devnode.internalUrl, [onPrimary, onStandby]);
  console.log(
    `delivery after a mined block: primary p50 ${latency.primaryP50Ms} ms, standby p50 ${latency.standbyP50Ms} ms; ` +
      `added by waiting for replay: p50 ${latency.addedP50Ms} ms, p90 ${latency.addedP90Ms} ms, max ${latency.addedMaxMs} ms`,
  );
  const result = {
    generations: top,
    cores: cpus().length,
    requestsPerRound: REQUESTS,
    concurrency: CONCURRENCY,
    rounds,
    ratioMedian: median(rounds.map((r) => r.ratio)),
    primaryCpuMsPerRead: {
      serverOnPrimary: median(rounds.map((r) => r.primary.primaryCpuMsPerRead)),
      serverOnStandby: median(rounds.map((r) => r.standby.primaryCpuMsPerRead)),
    },
    standbyCpuMsPerRead: median(rounds.map((r) => r.standby.standbyCpuMsPerRead)),
    idlePrimaryCpuPercent,
    delivery: latency,
  };
  console.log(JSON.stringify(result, null, 2));
  writeResult('replicas', result);
  await Promise.all([onPrimary.stop(), onStandby.stop()]);
  await populator.stop();
  await devnode.stop();
  await pg.destroy();
}

interface Measured {
  readonly perSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly primaryCpuMsPerRead: number;
  readonly standbyCpuMsPerRead: number;
}

/** measure loads one server and reads both PostgreSQL servers' CPU over it. */
async function measure(
  server: Child,
  path: () => string,
  primaryCpu: () => number,
  standbyCpu: () => number,
): Promise<Measured> {
  const [p0, s0] = [primaryCpu(), standbyCpu()];
  const r = await load(server.url, path, REQUESTS, CONCURRENCY);
  const perRead = (seconds: number): number => Number(((seconds * 1000) / r.requests).toFixed(4));
  return {
    perSecond: r.perSecond,
    p50Ms: r.p50Ms,
    p99Ms: r.p99Ms,
    primaryCpuMsPerRead: perRead(primaryCpu() - p0),
    standbyCpuMsPerRead: perRead(standbyCpu() - s0),
  };
}

/**
 * deliveryLatency mines BLOCKS key blocks one at a time and times each one's key block event at a websocket client of
 * each server, from the mine request on.
 */
async function deliveryLatency(
  internalUrl: string,
  servers: readonly Child[],
): Promise<{ primaryP50Ms: number; standbyP50Ms: number; addedP50Ms: number; addedP90Ms: number; addedMaxMs: number }> {
  const sockets = await Promise.all(servers.map((s) => subscribe(s.url)));
  const added: number[] = [];
  const took: number[][] = servers.map(() => []);
  try {
    for (let i = 0; i < BLOCKS; i++) {
      const started = performance.now();
      // as the node, the devnode answers 415 to a body not declared JSON
      const res = await fetch(`${internalUrl}/v2/debug/dev/mine`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"key_blocks":1}',
      });
      const { height } = (await res.json()) as { height: number };
      const at = await Promise.all(sockets.map((s) => s.keyBlockAt(height)));
      at.forEach((t, s) => took[s]!.push(t - started));
      added.push(at[1]! - at[0]!);
    }
  } finally {
    for (const s of sockets) s.ws.terminate();
  }
  const round = (n: number): number => Number(n.toFixed(1));
  const sorted = [...added].sort((a, b) => a - b);
  return {
    primaryP50Ms: round(median(took[0]!)),
    standbyP50Ms: round(median(took[1]!)),
    addedP50Ms: round(median(added)),
    addedP90Ms: round(sorted[Math.floor(0.9 * (sorted.length - 1))]!),
    addedMaxMs: round(sorted.at(-1)!),
  };
}

/** subscribe opens ae_mdw's websocket of a server on its HTTP port and notes when each key block's event arrives. */
async function subscribe(httpUrl: string): Promise<{ ws: WebSocket; keyBlockAt(height: number): Promise<number> }> {
  const ws = new WebSocket(`${httpUrl.replace(/^http/, 'ws')}/mdw/v2/websocket`);
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  const arrived = new Map<number, number>();
  const waiting = new Map<number, (at: number) => void>();
  ws.on('message', (data: Buffer) => {
    const message = parseJson(data.toString('utf8')) as { subscription?: string; payload?: { height?: number } };
    const height = message.payload?.height;
    if (message.subscription !== 'KeyBlocks' || typeof height !== 'number' || arrived.has(height)) return;
    arrived.set(height, performance.now());
    waiting.get(height)?.(arrived.get(height)!);
  });
  ws.send(JSON.stringify({ op: 'Subscribe', payload: 'KeyBlocks' }));
  return {
    ws,
    keyBlockAt: (height) =>
      arrived.has(height)
        ? Promise.resolve(arrived.get(height)!)
        : new Promise<number>((resolve) => waiting.set(height, resolve)),
  };
}

await main();
