/**
 * @module The balances' stretches at catch-up (issue 76): the heap one step of the balances area takes, by the
 * transactions its stretch holds. A `--mainnet-like` devnode chain (busy eras of about 150 transactions a generation)
 * is loaded by the real populator; then, for each cap of BENCH_STRETCH_CAPS (0: none, a stretch of the heights alone,
 * as before GATHERED_TRANSACTIONS), a child process of its own derives the balances of every stored height again
 * through the backfill (DeriveBackfill, `gatheredTransactions`) and prints the peak of its heap above the heap before
 * (sampled every 2 ms, after a full collection), its peak RSS, its stretches, the largest one's transactions and the
 * seconds; last, the line through the peaks by the largest stretch's transactions: what a stretch costs whatever its
 * size (the collector's slack, the code) and what each of its transactions adds.
 *
 *   make bench ONLY=balances-stretch   (about five minutes; BENCH_STRETCH_GENERATIONS=1000,
 *     BENCH_STRETCH_CAPS=0,20000,5000)
 */
import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import pino from 'pino';
import { loadConfig } from '../src/config/middleware.ts';
import { createPool } from '../src/db/connection/pool.ts';
import { recordBackfill } from '../src/db/writes/derive-backfill.ts';
import { pendingBackfills } from '../src/db/queries/pending-backfills.ts';
import { heightsTransactionCount } from '../src/db/queries/height-transactions.ts';
import { DeriveBackfill } from '../src/indexer/derived/derive-backfill.ts';
import { transferRulesOf } from '../src/indexer/derived/internal-transfers.ts';
import { NodeClient } from '../src/node/client.ts';
import { createTestDatabase, stopTestServer } from '../test/support/postgres.ts';
import { populateToTop } from '../test/support/populate.ts';
import { killChildrenOnExit, nodeFilesArgs, startDevnodeProcess } from './http.lib.ts';
import { writeResult } from './results.lib.ts';

const GENERATIONS = Number(process.env.BENCH_STRETCH_GENERATIONS ?? 1000);
const CAPS = (process.env.BENCH_STRETCH_CAPS ?? '0,20000,5000').split(',').map(Number);
const SCHEMA = 'mdw';
const log = pino({ level: 'warn' });
const MB = 2 ** 20;

/** One derivation of every stored height's balances, in a process of its own. */
interface Derivation {
  readonly cap: number;
  readonly stretches: number;
  readonly largestStretchTransactions: number;
  readonly peakHeapMb: number;
  readonly peakRssMb: number;
  readonly seconds: number;
}

/** child derives the balances of every stored height through the backfill, measuring its heap (one JSON line). */
async function child(): Promise<void> {
  const cap = Number(process.env.BENCH_STRETCH_CAP);
  // the parent's settings: the node, the database and the devnode's deployment (its reward rules and genesis accounts)
  const cfg = loadConfig(process.env);
  const pool = createPool({ databaseUrl: cfg.databaseUrl, schema: SCHEMA, max: 2 }, log);
  const node = new NodeClient({ url: cfg.nodeUrl, timeoutMs: 60_000 }, log);
  const { rows } = await pool.query<{ top: number }>('SELECT max(height) AS top FROM key_blocks');
  const top = rows[0]!.top;
  await recordBackfill(pool, 'balances', 0, top);
  const backfill = new DeriveBackfill({
    pool,
    log,
    rules: await transferRulesOf(cfg, { hyperchain: false }),
    balances: node,
    internalCalls: node,
    batchHeights: cfg.batchSize,
    schema: SCHEMA,
    gatheredTransactions: cap > 0 ? cap : Infinity,
  });
  (globalThis as { gc?: () => void }).gc?.();
  const base = process.memoryUsage();
  let peak = base.heapUsed;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().heapUsed)), 2);
  const stretches: { from: number; to: number }[] = [];
  const started = performance.now();
  let from = 0;
  while (await backfill.step()) {
    const next = (await pendingBackfills(pool)).find((p) => p.area === 'balances')?.next ?? top + 1;
    stretches.push({ from, to: next - 1 });
    from = next;
  }
  const seconds = (performance.now() - started) / 1000;
  clearInterval(timer);
  const sizes = await Promise.all(stretches.map((s) => heightsTransactionCount(pool, s.from, s.to)));
  await pool.end();
  const result: Derivation = {
    cap,
    stretches: stretches.length,
    largestStretchTransactions: Math.max(...sizes),
    peakHeapMb: Math.round((peak - base.heapUsed) / MB),
    peakRssMb: Math.round((process.resourceUsage().maxRSS * 1024 - base.rss) / MB),
    seconds: Math.round(seconds * 10) / 10,
  };
  console.log(JSON.stringify(result));
}

/** fit is the least-squares line through (transactions, MB) points: MB at none, and bytes a transaction. */
function fit(points: readonly (readonly [number, number])[]): { base: number; bytes: number } {
  const n = points.length;
  const mx = points.reduce((s, [x]) => s + x, 0) / n;
  const my = points.reduce((s, [, y]) => s + y, 0) / n;
  const sxy = points.reduce((s, [x, y]) => s + (x - mx) * (y - my), 0);
  const sxx = points.reduce((s, [x]) => s + (x - mx) ** 2, 0);
  const slope = sxx === 0 ? 0 : sxy / sxx;
  return { base: my - slope * mx, bytes: slope * MB };
}

/** derive runs the child for one cap. */
async function derive(env: Record<string, string>): Promise<Derivation> {
  const proc = spawn(process.execPath, ['--expose-gc', new URL(import.meta.url).pathname], {
    env: { ...process.env, ...env, BENCH_STRETCH_CHILD: '1' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  proc.stdout.on('data', (c: Buffer) => (out += c.toString()));
  const code = await new Promise<number | null>((resolve) => proc.once('exit', resolve));
  if (code !== 0) throw new Error(`derivation exited with ${code}`);
  return JSON.parse(out.trim().split('\n').at(-1)!) as Derivation;
}

async function main(): Promise<void> {
  killChildrenOnExit();
  const devnode = await startDevnodeProcess([
    ...['--generate', String(GENERATIONS), '--seed', 'bench-stretch', '--mainnet-like'],
    ...nodeFilesArgs(),
  ]);
  const db = await createTestDatabase();
  try {
    // configured as a deployment on the devnode's chain (its reward rules and genesis accounts, DevnodeChild)
    const env = { ...devnode.deployment, NODE_URL: devnode.url, DATABASE_URL: db.url };
    const cfg = loadConfig({ ...env, DATABASE_SCHEMA: SCHEMA });
    const loading = performance.now();
    await populateToTop(cfg);
    const pool = createPool({ databaseUrl: db.url, schema: SCHEMA, max: 1 }, log);
    const { rows } = await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM transactions');
    await pool.end();
    const transactions = rows[0]!.n;
    console.log(
      `${GENERATIONS} mainnet-like generations, ${transactions} transactions, loaded in ` +
        `${((performance.now() - loading) / 1000).toFixed(0)} s`,
    );
    const runs: Derivation[] = [];
    for (const cap of CAPS) {
      const run = await derive({ ...env, BENCH_STRETCH_CAP: String(cap) });
      runs.push(run);
      console.log(
        `cap ${cap || 'none'}: ${run.stretches} stretches, the largest ${run.largestStretchTransactions} transactions, ` +
          `heap peak +${run.peakHeapMb} MB, RSS peak +${run.peakRssMb} MB, ${run.seconds} s`,
      );
    }
    const heap = fit(runs.map((r) => [r.largestStretchTransactions, r.peakHeapMb]));
    const rss = fit(runs.map((r) => [r.largestStretchTransactions, r.peakRssMb]));
    console.log(
      `by the largest stretch's transactions: heap ${heap.base.toFixed(0)} MB + ${heap.bytes.toFixed(0)} bytes a ` +
        `transaction, RSS ${rss.base.toFixed(0)} MB + ${rss.bytes.toFixed(0)} bytes a transaction`,
    );
    writeResult('balances-stretch', {
      benchmark: 'balances-stretch',
      generations: GENERATIONS,
      transactions,
      runs,
      heap,
      rss,
    });
  } finally {
    await devnode.stop();
    await db.drop();
    await stopTestServer();
  }
}

if (process.env.BENCH_STRETCH_CHILD === '1') await child();
else await main();
