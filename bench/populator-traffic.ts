/**
 * @module The populator's memory traffic and system calls per transaction (issue 88: our own CPU; garbage collection
 * and socket writes are shares of the populator's profile that no instruction count shows). One devnode answering
 * like a real node serves a chain; the populator of this tree (bench/indexer.lib.populate.ts, own process) loads it
 * into empty schemas of one PostgreSQL, once per measure:
 * (1) with bench/allocation.hook.ts: the bytes it allocates over its load, by site (V8's sampling heap profiler, the
 *     samples of collected objects kept), and its garbage collections;
 * (2) under `strace -f`: every system call from its `syncing` line to its report, by name, and its writes (write,
 *     writev, sendto, sendmsg) by peer: PostgreSQL, the node, the rest;
 * (3) with `--cpu-prof` (BENCH_TRAFFIC_RUNS=cpu, not by default): its busy time by stage (bench/cpu-profile.lib.ts).
 * Each per transaction of the chain, also in bench/results/populator-traffic.json. The runs are apart because each
 * slows the populator (its batches may then hold more generations than without). Without strace, (2) is left out.
 *
 *   node bench/populator-traffic.ts   (BENCH_TRAFFIC_GENERATIONS=600 BENCH_TRAFFIC_LATENCY_MS=20
 *                                      BENCH_TRAFFIC_SITES=25: the sites listed; BENCH_TRAFFIC_RUNS=alloc,strace;
 *                                      BENCH_TRAFFIC_KEEP=<dir>: the profiles and strace logs kept there;
 *                                      BENCH_TRAFFIC_FLAGS="--import …": Node flags of the populator in every run;
 *                                      BENCH_TRAFFIC_SURVIVORS=1: (1) counts only what survived a scavenge, the
 *                                      garbage promoted to the old generation (and what is live at the end);
 *                                      BENCH_TRAFFIC_COMMIT=<commit>: that commit's populator measured too, before
 *                                      this tree's, each run on the same chain and database)
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestDatabase, queryOnce, stopTestServer } from '../test/support/postgres.ts';
import { stageShares, type CpuProfile } from './cpu-profile.lib.ts';
import { extractCommit } from './checkout.lib.ts';
import {
  fixedGenesisArgs,
  killChildrenOnExit,
  nodeFilesArgs,
  startDevnodeProcess,
  workerFlags,
  type DevnodeChild,
} from './http.lib.ts';
import { allocationSites, syscallCounts, type SamplingProfile, type Sums } from './populator-traffic.lib.ts';
import { writeResult } from './results.lib.ts';

const GENERATIONS = Number(process.env.BENCH_TRAFFIC_GENERATIONS ?? 600);
const LATENCY_MS = Number(process.env.BENCH_TRAFFIC_LATENCY_MS ?? 20);
const SITES = Number(process.env.BENCH_TRAFFIC_SITES ?? 25);
const RUNS = (process.env.BENCH_TRAFFIC_RUNS ?? 'alloc,strace').split(',');
const KEEP = process.env.BENCH_TRAFFIC_KEEP;
const COMMIT = process.env.BENCH_TRAFFIC_COMMIT;
const FLAGS = process.env.BENCH_TRAFFIC_FLAGS?.split(' ').filter(Boolean) ?? [];
const SURVIVORS = process.env.BENCH_TRAFFIC_SURVIVORS === '1';
const SLOTS = 32;
const HERE = new URL('..', import.meta.url).pathname;

/** A populator to measure: a checkout (this tree, or an older commit's) and its name in the report. */
interface Side {
  readonly name: string;
  readonly dir: string;
}

/** populate runs `side`'s populator child to the chain's top into `schema`, `wrap` (strace) before Node. */
async function populate(
  side: Side,
  node: DevnodeChild,
  databaseUrl: string,
  schema: string,
  wrap: readonly string[],
  args: readonly string[],
  env: Record<string, string>,
): Promise<void> {
  const script = join(side.dir, 'bench/indexer.lib.populate.ts');
  const command = [...wrap, process.execPath, '--expose-gc', ...FLAGS, ...args, script];
  const child = spawn(command[0]!, command.slice(1), {
    cwd: side.dir,
    env: {
      ...node.deployment,
      NODE_URL: node.url,
      NODE_URLS: node.url,
      DATABASE_URL: databaseUrl,
      DATABASE_SCHEMA: schema,
      BENCH_TOP: String(GENERATIONS),
      BENCH_SAMPLE: '0',
      LOG_LEVEL: 'warn',
      NODE_TIMEOUT_MS: '30000',
      MALLOC_MMAP_THRESHOLD_: '131072',
      PATH: process.env.PATH,
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`${side.dir}: populator exited with ${code}`);
}

const kb = (bytes: number): string => `${(bytes / 1024).toFixed(2)} KB`;

/** Where the runs' files go, and how a schema's transactions are counted. */
interface Context {
  readonly node: DevnodeChild;
  readonly databaseUrl: string;
  readonly dir: string;
  transactions(schema: string): Promise<number>;
}

/** allocation prints (and answers) what `side` allocates a transaction over its load, by package and by site. */
async function allocation(side: Side, run: Context): Promise<object> {
  const file = join(run.dir, `allocation-${side.name}.json`);
  const schema = `traffic_alloc_${side.name}`;
  const hook = ['--import', join(HERE, 'bench/allocation.hook.ts')];
  await populate(side, run.node, run.databaseUrl, schema, [], hook, {
    BENCH_ALLOCATION_FILE: file,
    BENCH_ALLOCATION_SURVIVORS: SURVIVORS ? '1' : '0',
  });
  const transactions = await run.transactions(schema);
  const { profile, gcs, gcMs, majorGcs } = JSON.parse(readFileSync(file, 'utf8')) as {
    profile: SamplingProfile;
    gcs: number;
    gcMs: number;
    majorGcs: number;
  };
  const { total, sites, packages } = allocationSites(profile);
  console.log(
    `${side.name}, ${transactions} transactions: ${SURVIVORS ? 'survived a scavenge' : 'allocated'} ${kb(total / transactions)} a transaction; ` +
      `${(gcs / transactions).toFixed(4)} collections, ${((1000 * gcMs) / transactions).toFixed(1)} µs of pauses a transaction; ${majorGcs} major collections`,
  );
  if (SITES > 0) {
    console.log('  by package or source folder:');
    for (const [name, bytes] of packages.slice(0, SITES))
      console.log(`  ${kb(bytes / transactions).padStart(10)}  ${name}`);
    console.log(`  the ${SITES} largest sites (the innermost frame):`);
    for (const [name, bytes] of sites.slice(0, SITES))
      console.log(`  ${kb(bytes / transactions).padStart(10)}  ${name}`);
  }
  const perTx = (sums: Sums): Sums => sums.slice(0, 100).map(([name, bytes]) => [name, bytes / transactions]);
  return {
    transactions,
    bytes: total / transactions,
    collections: gcs / transactions,
    pauseMs: gcMs / transactions,
    majorCollections: majorGcs,
    packages: perTx(packages),
    sites: perTx(sites),
  };
}

/** cpu prints `side`'s busy time by stage. */
async function cpu(side: Side, run: Context): Promise<object> {
  const profiles = join(run.dir, `cpu-${side.name}`);
  await populate(
    side,
    run.node,
    run.databaseUrl,
    `traffic_cpu_${side.name}`,
    [],
    ['--cpu-prof', `--cpu-prof-dir=${profiles}`],
    {},
  );
  const [file] = readdirSync(profiles);
  const shares = stageShares(JSON.parse(readFileSync(join(profiles, file!), 'utf8')) as CpuProfile);
  const busy = [...shares.values()].reduce((a, b) => a + b, 0);
  console.log(`${side.name}: the populator's busy time by stage (--cpu-prof; its start and idle time left out):`);
  for (const [stage, ms] of [...shares].sort((a, b) => b[1] - a[1]))
    console.log(`  ${((100 * ms) / busy).toFixed(1).padStart(5)} %  ${ms.toFixed(0).padStart(6)} ms  ${stage}`);
  return { busyMs: busy, stages: Object.fromEntries(shares) };
}

/** syscalls prints `side`'s system calls a transaction over its load, by name, and its writes by peer. */
async function syscalls(side: Side, run: Context): Promise<object> {
  const file = join(run.dir, `strace-${side.name}.txt`);
  const schema = `traffic_strace_${side.name}`;
  await populate(
    side,
    run.node,
    run.databaseUrl,
    schema,
    ['strace', '-f', '-qq', '-yy', '-s', '8', '-o', file],
    [],
    {},
  );
  const transactions = await run.transactions(schema);
  const ports = { postgres: Number(new URL(run.databaseUrl).port), node: Number(new URL(run.node.url).port) };
  const { byName, writes } = syscallCounts(readFileSync(file, 'utf8'), ports);
  const total = [...byName.values()].reduce((a, b) => a + b, 0);
  const per = (n: number): string => (n / transactions).toFixed(3);
  console.log(`${side.name}, ${transactions} transactions: ${per(total)} system calls a transaction, by name:`);
  for (const [name, n] of [...byName].sort((a, b) => b[1] - a[1]).slice(0, 12))
    console.log(`  ${per(n).padStart(8)}  ${name}`);
  console.log('  writes (write, writev, sendto, sendmsg) a transaction, by peer (calls, bytes):');
  for (const [peer, w] of writes) console.log(`  ${per(w.calls).padStart(8)}  ${kb(w.bytes / transactions)}  ${peer}`);
  return { transactions, calls: Object.fromEntries(byName), writes: Object.fromEntries(writes) };
}

async function main(): Promise<void> {
  killChildrenOnExit();
  const runs = RUNS.filter((kind) => kind !== 'strace' || spawnSync('strace', ['-V']).status === 0);
  if (runs.length < RUNS.length) console.log('strace is not installed: no system calls counted');
  const old = COMMIT === undefined ? undefined : extractCommit(HERE, COMMIT);
  const sides: Side[] = [...(old ? [{ name: old.commit.slice(0, 7), dir: old.dir }] : []), { name: 'tree', dir: HERE }];
  console.log(
    `${GENERATIONS} generations, a devnode at ${LATENCY_MS} ms; ${sides.map((s) => s.name).join(' then ')}; ` +
      `load ${loadavg()[0]!.toFixed(1)}`,
  );
  const node = await startDevnodeProcess([
    ...['--generate', String(GENERATIONS), '--seed', 'perf', '--latency-ms', String(LATENCY_MS)],
    ...workerFlags(SLOTS),
    ...fixedGenesisArgs(),
    ...nodeFilesArgs(),
  ]);
  const db = await createTestDatabase();
  const dir = KEEP ?? mkdtempSync(join(tmpdir(), 'mdw-traffic-'));
  const run: Context = {
    node,
    databaseUrl: db.url,
    dir,
    transactions: async (schema) => {
      const { rows } = await queryOnce<{ n: string }>(db.url, `SELECT count(*) AS n FROM ${schema}.transactions`);
      return Number(rows[0]!.n);
    },
  };
  try {
    const measures = { alloc: allocation, cpu, strace: syscalls };
    const results: Record<string, Record<string, object>> = {};
    for (const [kind, measure] of Object.entries(measures))
      if (runs.includes(kind)) for (const side of sides) (results[kind] ??= {})[side.name] = await measure(side, run);
    const load = loadavg()[0]!;
    console.log(`load ${load.toFixed(1)}`);
    writeResult('populator-traffic', { date: new Date().toISOString(), generations: GENERATIONS, load, results });
  } finally {
    if (!KEEP) rmSync(dir, { recursive: true, force: true });
    old?.remove();
    await node.stop();
    await db.drop();
    await stopTestServer();
  }
}

await main();
