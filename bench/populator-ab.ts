/**
 * @module A/B of two populators on one chain in one run (issue 12: the populator's throughput with the /v3 tables
 * against the code before them). Both checkouts' `bench/indexer.lib.populate.ts` load the same devnode chain (this
 * checkout's devnode, its own process) from an empty schema of one PostgreSQL, in turns A B A B …, so that the
 * machine's drift falls on both alike; each pair gives a ratio B ÷ A of tx/s. CPU per transaction of each populator
 * process and of PostgreSQL are read from /proc.
 *
 *   BENCH_AB_OLD=<checkout of the older code, node_modules included> node bench/populator-ab.ts
 *   (BENCH_AB_GENERATIONS=5000, BENCH_AB_ROUNDS=3; A is the older code, B this checkout)
 */
import { spawn } from 'node:child_process';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { createTestDatabase, stopTestServer } from '../test/support/postgres.ts';
import { startDevnodeProcess } from './http.lib.ts';
import { postgresCpuReader, processCpuSeconds } from './process-cpu.lib.ts';
import { writeResult } from './results.lib.ts';

const OLD = process.env.BENCH_AB_OLD;
const GENERATIONS = Number(process.env.BENCH_AB_GENERATIONS ?? 5000);
const ROUNDS = Number(process.env.BENCH_AB_ROUNDS ?? 3);
const NEW = new URL('..', import.meta.url).pathname;

interface Run {
  readonly seconds: number;
  readonly cpuSeconds: number;
  readonly postgresCpuSeconds: number;
}

/** populate runs `checkout`'s populator child into a new schema and reads its CPU until it exits. */
async function populate(checkout: string, nodeUrl: string, databaseUrl: string, schema: string): Promise<Run> {
  const postgresCpu = await postgresCpuReader(databaseUrl);
  const pg0 = postgresCpu();
  const child = spawn(process.execPath, ['--expose-gc', join(checkout, 'bench/indexer.lib.populate.ts')], {
    cwd: checkout,
    env: {
      NODE_URL: nodeUrl,
      DATABASE_URL: databaseUrl,
      DATABASE_SCHEMA: schema,
      BENCH_TOP: String(GENERATIONS),
      LOG_LEVEL: 'warn',
      MALLOC_MMAP_THRESHOLD_: '131072',
      PATH: process.env.PATH,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let cpu = 0;
  // the last reading before the exit: /proc forgets a process once it is reaped
  const timer = setInterval(() => {
    try {
      cpu = processCpuSeconds(child.pid!);
    } catch {
      // exited between two readings
    }
  }, 50);
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  clearInterval(timer);
  if (code !== 0) throw new Error(`${checkout}: populator exited with ${code}`);
  const report = JSON.parse(out.trim().split('\n').at(-1)!) as { seconds: number; cpuSeconds?: number };
  return { seconds: report.seconds, cpuSeconds: report.cpuSeconds ?? cpu, postgresCpuSeconds: postgresCpu() - pg0 };
}

async function main(): Promise<void> {
  if (!OLD) {
    console.log('populator-ab: skipped (BENCH_AB_OLD names the checkout of the older code to compare with)');
    return;
  }
  const load = { before: loadavg() };
  // this checkout's devnode (2 micro blocks × 5 txs a generation)
  const devnode = await startDevnodeProcess(['--generate', String(GENERATIONS), '--seed', 'bench']);
  const db = await createTestDatabase();
  const transactions = GENERATIONS * 10;
  const pairs: { a: Run; b: Run; ratio: number; load: number }[] = [];
  try {
    for (let round = 0; round < ROUNDS; round++) {
      const a = await populate(OLD, devnode.url, db.url, `ab_a_${round}`);
      const b = await populate(NEW, devnode.url, db.url, `ab_b_${round}`);
      const ratio = a.seconds / b.seconds;
      pairs.push({ a, b, ratio, load: loadavg()[0]! });
      const perTx = (s: number): string => `${((1e6 * s) / transactions).toFixed(0)} µs`;
      console.log(
        `round ${round + 1} (load ${loadavg()[0]!.toFixed(1)}): A ${(transactions / a.seconds).toFixed(0)} tx/s ` +
          `(CPU per tx ${perTx(a.cpuSeconds)}, PostgreSQL ${perTx(a.postgresCpuSeconds)}), B ${(transactions / b.seconds).toFixed(0)} tx/s ` +
          `(${perTx(b.cpuSeconds)}, PostgreSQL ${perTx(b.postgresCpuSeconds)}); B ÷ A ${ratio.toFixed(2)}`,
      );
    }
  } finally {
    await devnode.stop();
    await db.drop();
    await stopTestServer();
  }
  const sorted = pairs.map((p) => p.ratio).sort((x, y) => x - y);
  console.log(`B ÷ A, tx/s, median of ${pairs.length} pairs: ${sorted[Math.floor(sorted.length / 2)]!.toFixed(2)}`);
  writeResult('populator-ab', {
    benchmark: 'populator-ab',
    date: new Date().toISOString(),
    old: OLD,
    generations: GENERATIONS,
    load,
    pairs,
  });
}

await main();
