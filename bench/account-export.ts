/**
 * @module Export benchmark (issue 61): the history of the busiest account of a mainnet-like devnode chain, loaded by the
 * real populator, exported by `mdw -s` (its own process, a pod's Node flags) as CSV and as NDJSON, each read as fast as
 * this process takes it, alone: rows/s, the server's and PostgreSQL's CPU per row, the server's RSS above its idle RSS
 * (its peak, sampled every 100 ms, in each quarter of the export); then each once more while small requests (a
 * transaction by hash, a key block, 4 in flight) run beside it: their p50/p99 against the same requests alone, and the
 * export's peak RSS then. Writes
 * bench/results/account-export.json.
 *
 *   make bench ONLY=account-export
 *
 * BENCH_EXPORT_PIN=1 puts the server on a core of its own (CPU 1) and everything else (this process, PostgreSQL, the
 * devnode) on CPU 0, as a deployment gives the server its core: the small requests' latencies beside an export are then
 * the server's, not two cores shared four ways. Beside each export the server's event-loop delay (its /metrics,
 * prom-client's histogram, reset by each scrape) tells how long a request waited behind the export's work in the server.
 *
 * BENCH_GENERATIONS (default 2000) sets the chain's length; BENCH_SERVER_NODE_OPTIONS adds the server's Node flags
 * (`--cpu-prof --cpu-prof-dir=DIR` to profile it). BENCH_BASELINE_MDW (another tree's bin/mdw.js, with its
 * node_modules: `git archive` of a commit) exports the same account of the same database first, alone, as the
 * baseline of the same run: its rows/s, CPU per row and memory beside the working tree's. The busiest account of the generated chain is named by a
 * few percent of its transactions (the devnode's traffic spreads over 64 accounts); with BENCH_EXPORT_EVERY_TX (default
 * 1) it is also entered in account_transactions for every other transaction of the chain (rows of the real layout, as
 * the populator writes them), so the export walks every transaction of the chain, all types rendered.
 */
import { request } from 'node:http';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { idOfKey } from '../src/chain/id-key.ts';
import { createPool, type Pool } from '../src/db/connection/pool.ts';
import { createLogger } from '../src/base/log.ts';
import { serverNodeOptions } from '../src/operator/specs/server-deployment.ts';
import { killChildrenOnExit, percentile, startMdwServer, type Child } from './http.lib.ts';
import { loadedChain } from './loaded-chain.lib.ts';
import { postgresCpuReader, processCpuSeconds } from './process-cpu.lib.ts';
import { rssMb, withPeakRss } from './process-memory.lib.ts';
import { pinTree } from './pin.lib.ts';
import { writeResult } from './results.lib.ts';

const GENERATIONS = Number(process.env.BENCH_GENERATIONS ?? 2000);
const EVERY_TX = (process.env.BENCH_EXPORT_EVERY_TX ?? '1') === '1';
const SCHEMA = 'mdw_bench_export';
/** the target: 2 M transactions in under 60 s at < 50 MB above idle */
const TARGET = { rows: 2_000_000, seconds: 60, mb: 50 };
const PROBE_SECONDS = 10;
const FORMATS = ['text/csv', 'application/x-ndjson'] as const;
const BASELINE_MDW = process.env.BENCH_BASELINE_MDW;
const PIN = process.env.BENCH_EXPORT_PIN === '1';
const log = createLogger({ logLevel: 'silent', logPretty: false, logDir: undefined }).log;

/** busiestAccount is the id account_transactions names most often, and how often. */
async function busiestAccount(pool: Pool): Promise<{ id: string; num: number; rows: number }> {
  const { rows } = await pool.query<{ key: Buffer; num: number; n: string }>(
    `SELECT i.key, i.num, a.n FROM (SELECT account, count(*) AS n FROM account_transactions GROUP BY account
      ORDER BY n DESC LIMIT 1) a JOIN account_ids i ON i.num = a.account`,
  );
  return { id: idOfKey(rows[0]!.key), num: rows[0]!.num, rows: Number(rows[0]!.n) };
}

/** Probes are small requests sent 4 at a time until `stop`: their latencies in ms. */
async function probe(url: string, paths: () => string, stop: () => boolean): Promise<number[]> {
  const latencies: number[] = [];
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (!stop()) {
        const t = performance.now();
        const res = await fetch(`${url}${paths()}`);
        await res.arrayBuffer();
        if (res.status !== 200) throw new Error(`probe: ${res.status}`);
        latencies.push(performance.now() - t);
      }
    }),
  );
  return latencies.sort((a, b) => a - b);
}

interface LoopDelay {
  readonly p99Ms: number;
  readonly maxMs: number;
}

/**
 * loopDelay reads the server's event-loop delay since the last scrape of its /metrics (which resets it): p99 and max
 * in ms. Read once before an interval to start it.
 */
async function loopDelay(url: string): Promise<LoopDelay> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const gauge = (name: string): number =>
    Number(
      (Number(new RegExp(`^nodejs_eventloop_lag_${name}_seconds (\\S+)$`, 'm').exec(text)?.[1]) * 1000).toFixed(1),
    );
  return { p99Ms: gauge('p99'), maxMs: gauge('max') };
}

interface ExportRun {
  readonly format: string;
  readonly rows: number;
  readonly bytes: number;
  readonly seconds: number;
  readonly rowsPerSecond: number;
  readonly peakRssAboveIdleMb: number;
  /**
   * the RSS above idle as the export starts: what the runs before it left (freed memory a process keeps: V8's pages,
   * malloc's arenas, the compressors' buffers of the small requests), which its peak counts too
   */
  readonly startRssAboveIdleMb: number;
  /** the peak in each quarter of the export's time: flat memory is the same peak in each */
  readonly quarterPeaksAboveIdleMb: number[];
  /** CPU per row of the server and of PostgreSQL, µs (the machine's load does not change these much) */
  readonly serverCpuUsPerRow: number;
  readonly postgresCpuUsPerRow: number;
  readonly complete: string | undefined;
}

/** exportOnce reads one export whole (no compression), sampling the server's RSS, and counts its rows. */
async function exportOnce(
  server: Child,
  path: string,
  accept: string,
  idleMb: number,
  postgresCpu: () => number,
): Promise<ExportRun> {
  const samples: [number, number][] = [];
  const startMb = rssMb(server.pid);
  const sampler = setInterval(() => samples.push([performance.now(), rssMb(server.pid)]), 100);
  const [cpu0, pg0] = [processCpuSeconds(server.pid), postgresCpu()];
  const t0 = performance.now();
  const { rows, bytes, complete } = await new Promise<{ rows: number; bytes: number; complete?: string }>(
    (resolve, reject) => {
      const req = request(`${server.url}${path}`, { headers: { accept, te: 'trailers' } }, (res) => {
        if (res.statusCode !== 200) reject(new Error(`export: ${res.statusCode}`));
        let lines = 0;
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          for (let i = chunk.indexOf(10); i >= 0; i = chunk.indexOf(10, i + 1)) lines++;
        });
        res.on('end', () => resolve({ rows: lines, bytes: size, complete: res.trailers['export-complete'] }));
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end();
    },
  );
  const seconds = (performance.now() - t0) / 1000;
  clearInterval(sampler);
  const [cpu, pg] = [processCpuSeconds(server.pid) - cpu0, postgresCpu() - pg0];
  // the CSV's header line is no row
  const counted = accept === 'text/csv' ? rows - 1 : rows;
  const quarters = [0, 1, 2, 3].map((q) =>
    Math.max(
      0,
      ...samples.filter(([t]) => Math.min(3, Math.floor(((t - t0) / 1000 / seconds) * 4)) === q).map(([, r]) => r),
    ),
  );
  const peak = Math.max(...quarters);
  return {
    format: accept,
    rows: counted,
    bytes,
    seconds: Number(seconds.toFixed(2)),
    rowsPerSecond: Math.round(counted / seconds),
    peakRssAboveIdleMb: Number((peak - idleMb).toFixed(1)),
    startRssAboveIdleMb: Number((startMb - idleMb).toFixed(1)),
    quarterPeaksAboveIdleMb: quarters.map((r) => Number((r - idleMb).toFixed(1))),
    serverCpuUsPerRow: Math.round((cpu * 1e6) / Math.max(1, counted)),
    postgresCpuUsPerRow: Math.round((pg * 1e6) / Math.max(1, counted)),
    complete,
  };
}

/** One server's exports: its idle RSS, the small requests alone, and each format's run. */
interface ServerRuns {
  readonly idleRssMb: number;
  /**
   * the small requests alone, and beside each run (the working tree's); their own peak RSS above idle, which the runs
   * beside them count too
   */
  readonly alone?: {
    readonly p50Ms: number;
    readonly p99Ms: number;
    readonly peakRssAboveIdleMb: number;
    readonly eventLoopDelayMs: LoopDelay;
  };
  readonly runs: (ExportRun & {
    probeP50Ms?: number;
    probeP99Ms?: number;
    eventLoopDelayBesideMs?: LoopDelay;
    peakRssAboveIdleBesideProbesMb?: number;
    startRssAboveIdleBesideProbesMb?: number;
  })[];
}

async function main(): Promise<void> {
  killChildrenOnExit();
  const chain = await loadedChain(GENERATIONS, 'bench-export', SCHEMA, {}, undefined, ['--mainnet-like']);
  const pool = createPool({ databaseUrl: chain.env.DATABASE_URL!, schema: SCHEMA, max: 2 }, log);
  const account = await busiestAccount(pool);
  const { rows: txCount } = await pool.query<{ n: string }>('SELECT count(*) AS n FROM transactions');
  if (EVERY_TX) {
    await pool.query(
      `INSERT INTO account_transactions (account, height, micro_index, tx_index, tx_type, fields)
       SELECT $1, height, micro_index, tx_index, tx_type, 'bench' FROM transactions ON CONFLICT DO NOTHING`,
      [account.num],
    );
  }
  // the whole chain analyzed before anything is measured, as a server's database is: left to autovacuum, its
  // analyze of the freshly loaded tables ran during the first exports (its CPU counted as theirs, their plans unsure)
  await pool.query('VACUUM ANALYZE');
  const exported = EVERY_TX ? Number(txCount[0]!.n) : account.rows;
  console.log(`busiest account ${account.id}: ${account.rows} transactions of ${txCount[0]!.n}; exporting ${exported}`);
  const hashes = (await pool.query<{ hash: string }>('SELECT hash FROM transactions ORDER BY random() LIMIT 1000'))
    .rows;
  const top = (await pool.query<{ h: number }>('SELECT max(height) AS h FROM key_blocks')).rows[0]!.h;
  const small = (): string =>
    Math.random() < 0.5
      ? `/mdw/v3/transactions/${hashes[Math.floor(Math.random() * hashes.length)]!.hash}`
      : `/mdw/v3/key-blocks/${1 + Math.floor(Math.random() * top)}`;

  const postgresCpu = await postgresCpuReader(chain.env.DATABASE_URL!);
  const nodeOptions = `${serverNodeOptions(undefined)} ${process.env.BENCH_SERVER_NODE_OPTIONS ?? ''}`.trim();
  const path = `/mdw/v3/accounts/${account.id}/transactions/export`;
  /** exports of one server (`mdw`: another tree's), alone; with `probes`, each again beside the small requests */
  async function serverRuns(mdw: string | undefined, probes: boolean): Promise<ServerRuns> {
    const server = await startMdwServer(chain.env, nodeOptions, mdw === undefined ? {} : { mdw });
    if (PIN) {
      pinTree(process.pid, '0');
      pinTree(server.pid, '1');
    }
    // warm-up: the routes, a short export, then idle
    await exportOnce(server, `${path}?limit=2000`, 'text/csv', 0, postgresCpu);
    const warmEnd = performance.now() + 2000;
    await probe(server.url, small, () => performance.now() > warmEnd);
    await sleep(3000);
    const idleMb = rssMb(server.pid);
    const aloneEnd = performance.now() + PROBE_SECONDS * 1000;
    await loopDelay(server.url);
    const { result: probesAlone, peakMb: probesPeakMb } = await withPeakRss(server.pid, async () =>
      probes ? probe(server.url, small, () => performance.now() > aloneEnd) : [],
    );
    const loopAlone = await loopDelay(server.url);
    const probesAboveIdleMb = Number((probesPeakMb - idleMb).toFixed(1));
    const runs: ServerRuns['runs'] = [];
    // each format alone first: its rate, CPU and memory are the export's own (after a run beside the small requests,
    // whose compressed answers leave the RSS higher, the next run's peak above idle was the probes' as much as its own)
    const alone = [];
    for (const accept of FORMATS) alone.push(await exportOnce(server, path, accept, idleMb, postgresCpu));
    for (const [i, accept] of FORMATS.entries()) {
      const run = alone[i]!;
      let latencies: number[] = [];
      let beside: ExportRun | undefined;
      let loopBeside: LoopDelay | undefined;
      if (probes) {
        let done = false;
        await loopDelay(server.url);
        const during = probe(server.url, small, () => done);
        beside = await exportOnce(server, path, accept, idleMb, postgresCpu);
        done = true;
        latencies = await during;
        loopBeside = await loopDelay(server.url);
      }
      runs.push(
        probes
          ? {
              ...run,
              probeP50Ms: percentile(latencies, 0.5),
              probeP99Ms: percentile(latencies, 0.99),
              peakRssAboveIdleBesideProbesMb: beside!.peakRssAboveIdleMb,
              eventLoopDelayBesideMs: loopBeside,
              startRssAboveIdleBesideProbesMb: beside!.startRssAboveIdleMb,
            }
          : run,
      );
      console.log(
        `${mdw ?? 'working tree'} ${accept}: ${run.rows} rows in ${run.seconds} s = ${run.rowsPerSecond} rows/s, ${(run.bytes / 1e6).toFixed(1)} MB, ` +
          `peak RSS ${run.peakRssAboveIdleMb} MB above idle (${idleMb.toFixed(1)} MB; by quarter ${run.quarterPeaksAboveIdleMb.join(', ')}; ` +
          `${run.startRssAboveIdleMb} MB at its start), ` +
          `CPU per row: server ${run.serverCpuUsPerRow} µs, PostgreSQL ${run.postgresCpuUsPerRow} µs, complete: ${run.complete}` +
          (probes
            ? `; small requests during a second export p50 ${percentile(latencies, 0.5)} / p99 ${percentile(latencies, 0.99)} ms ` +
              `(alone ${percentile(probesAlone, 0.5)} / ${percentile(probesAlone, 0.99)} ms), the server's event-loop delay ` +
              `p99 ${loopBeside!.p99Ms} / max ${loopBeside!.maxMs} ms (alone ${loopAlone.p99Ms} / ${loopAlone.maxMs}), its peak RSS ` +
              `${beside!.peakRssAboveIdleMb} MB above idle (${beside!.startRssAboveIdleMb} MB at its start; the small requests ` +
              `alone ${probesAboveIdleMb} MB)`
            : ''),
      );
    }
    await server.stop();
    return {
      idleRssMb: Number(idleMb.toFixed(1)),
      ...(probes && {
        alone: {
          p50Ms: percentile(probesAlone, 0.5),
          p99Ms: percentile(probesAlone, 0.99),
          peakRssAboveIdleMb: probesAboveIdleMb,
          eventLoopDelayMs: loopAlone,
        },
      }),
      runs,
    };
  }
  const baseline = BASELINE_MDW === undefined ? undefined : await serverRuns(BASELINE_MDW, false);
  const { idleRssMb, alone, runs } = await serverRuns(undefined, true);
  if (baseline)
    for (const [i, run] of runs.entries())
      console.log(
        `${run.format}: working tree ÷ baseline ${(run.rowsPerSecond / baseline.runs[i]!.rowsPerSecond).toFixed(2)} in rows/s`,
      );
  const slowest = Math.min(...runs.map((r) => r.rowsPerSecond));
  const projected = TARGET.rows / slowest;
  // on a core of its own each, the server's CPU per row bounds the rate (PostgreSQL runs beside it)
  const cpuBound = Math.max(...runs.map((r) => Math.max(r.serverCpuUsPerRow, r.postgresCpuUsPerRow)));
  const projectedOnCores = (TARGET.rows * cpuBound) / 1e6;
  console.log(
    `projected: ${TARGET.rows} rows in ${projected.toFixed(0)} s at the slower format's measured rate, ` +
      `${projectedOnCores.toFixed(0)} s on a free core each for server and PostgreSQL (target < ${TARGET.seconds} s, ` +
      `< ${TARGET.mb} MB above idle)`,
  );
  writeResult('account-export', {
    generations: GENERATIONS,
    serverPinned: PIN,
    transactions: Number(txCount[0]!.n),
    busiestAccountRows: account.rows,
    exportedRows: exported,
    idleRssMb,
    alone,
    runs,
    ...(baseline && { baseline: { mdw: BASELINE_MDW, ...baseline } }),
    projectedSecondsFor2M: Math.round(projected),
    projectedSecondsFor2MOnFreeCores: Math.round(projectedOnCores),
  });
  await pool.end();
  await chain.stop();
}

await main();
