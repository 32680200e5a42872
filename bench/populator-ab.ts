/**
 * @module The populator of the working tree (B) against an older commit's (A), on one chain in one run (issue 40: the
 * guard a release runs against the last one). A devnode answering like a real node (`--latency-ms`,
 * `--http-read`, `--http-update`) serves one chain; each round reads it with a bare client that keeps every slot busy
 * (n, the node-bound rate) and loads it with A's and B's populators (`bench/indexer.lib.populate.ts` of each
 * checkout, own processes) into empty schemas of one PostgreSQL, A and B in alternating order (A B, then B A) so that
 * the machine's drift falls on both alike. Per round: generations/s of each and the ratios B ÷ A, A ÷ n and B ÷ n;
 * node requests per generation; CPU seconds per transaction of each populator ÷ the bare client's, PostgreSQL's and the
 * devnodes' (on this machine the node shares the cores: a side that asks it more work is slowed by that work too), and
 * the own CPU per transaction, the populator's and PostgreSQL's together, B ÷ A (issue 88: what ours costs, whatever
 * the node's share).
 * The summary gives each ratio's median and spread (min–max) with the load average. Every B schema is checked
 * against the node afterwards (`mdw -v --full`), and a difference fails the run, as does a side that stopped synced
 * with a derived area pending.
 *
 *   BENCH_AB_COMMIT=<commit> make bench ONLY=populator-ab   (default: the newest release CHANGELOG.md names)
 *   BENCH_AB_OLD=<a checkout with node_modules>               (instead of a commit)
 *   BENCH_AB_GENERATIONS=3000 BENCH_AB_ROUNDS=3 BENCH_AB_LATENCY_MS=20 BENCH_AB_SLOTS=32 BENCH_AB_NODES=1
 *   BENCH_AB_MAINNET_LIKE=1: the chain has mainnet's shape (`--mainnet-like`, docs/devnode.md), not the default's
 *   BENCH_AB_VERIFY=0 (no verify) BENCH_AB_FLAGS="--cpu-prof --cpu-prof-dir=…" (Node flags of both populators)
 *   BENCH_AB_FLAGS_B="--single-threaded-gc" (Node flags of B's alone: with BENCH_AB_OLD=<this tree>, what a flag does)
 *   BENCH_AB_TIMELINE=1: each populator's idle node slots in the first tenth of its load, the eight between and the
 *   last (bench/node-slots.hook.ts), to tell where a populator leaves the node idle
 *   BENCH_AB_KINDS=1: each populator's requests per generation by kind (bench/node-requests.hook.ts), A beside B
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { loadConfig } from '../src/config/middleware.ts';
import { verifyChain } from '../src/indexer/maintenance/verify.ts';
import { createTestDatabase, stopTestServer } from '../test/support/postgres.ts';
import { bareClient, type BareRead } from './bare-client.lib.ts';
import { extractCommit, releaseCommit, type Checkout } from './checkout.lib.ts';
import { derivedWhole } from './derived-whole.lib.ts';
import {
  fixedGenesisArgs,
  killChildrenOnExit,
  median,
  nodeFilesArgs,
  startDevnodeProcess,
  workerFlags,
  type DevnodeChild,
} from './http.lib.ts';
import {
  postgresCpuSplitReader,
  processCpuSeconds,
  processCpuSplit,
  threadCpu,
  threadSplit,
  type UserSystem,
} from './process-cpu.lib.ts';
import { kindLines, type RequestKinds } from './node-requests.lib.ts';
import { writeResult } from './results.lib.ts';

const GENERATIONS = Number(process.env.BENCH_AB_GENERATIONS ?? 3000);
const ROUNDS = Number(process.env.BENCH_AB_ROUNDS ?? 3);
const LATENCY_MS = Number(process.env.BENCH_AB_LATENCY_MS ?? 20);
const SLOTS = Number(process.env.BENCH_AB_SLOTS ?? 32);
const NODES = Number(process.env.BENCH_AB_NODES ?? 1);
const VERIFY = process.env.BENCH_AB_VERIFY !== '0';
const FLAGS = process.env.BENCH_AB_FLAGS?.split(' ').filter(Boolean) ?? [];
const FLAGS_B = process.env.BENCH_AB_FLAGS_B?.split(' ').filter(Boolean) ?? [];
const TIMELINE = process.env.BENCH_AB_TIMELINE === '1';
const MAINNET_LIKE = process.env.BENCH_AB_MAINNET_LIKE === '1';
const KINDS = process.env.BENCH_AB_KINDS === '1';
const NEW = new URL('..', import.meta.url).pathname;

/** One populator's load of the chain. */
interface Run {
  readonly seconds: number;
  /** the populator's CPU over the sync (not its start), all its threads */
  readonly cpuSeconds: number;
  readonly postgresCpuSeconds: number;
  /** the nodes' CPU meanwhile (they share the machine's cores: a real node's would not be ours to pay) */
  readonly nodeCpuSeconds: number;
  /** the node answers it needed (its own count, summed over nodes) */
  readonly nodeRequests: number;
  /** BENCH_AB_TIMELINE: the share of the node's slots idle in each tenth of the load, and over all of it */
  readonly slots?: { readonly idleByTenth: readonly number[]; readonly idle: number };
  /** BENCH_AB_KINDS: its requests by kind */
  readonly kinds?: RequestKinds;
  /**
   * where the CPU went, user and system: the populator's process (read by this process up to its last sample, every
   * 250 ms) and its threads by kind, PostgreSQL's
   */
  readonly split: {
    readonly populator: UserSystem;
    readonly threads: Record<string, UserSystem>;
    readonly postgres: UserSystem;
  };
}

/** populate runs `checkout`'s populator child into a new schema and reports its run. */
async function populate(
  checkout: string,
  nodes: readonly DevnodeChild[],
  databaseUrl: string,
  schema: string,
  flags: readonly string[] = [],
): Promise<Run> {
  const urls = nodes.map((n) => n.url);
  const nodeCpu = (): number => nodes.reduce((sum, n) => sum + processCpuSeconds(n.pid), 0);
  const node0 = nodeCpu();
  const postgresCpu = await postgresCpuSplitReader(databaseUrl);
  let pg0: UserSystem = { user: 0, system: 0 };
  const dir = TIMELINE || KINDS ? mkdtempSync(join(tmpdir(), 'mdw-ab-')) : undefined;
  const slotsFile = TIMELINE ? join(dir!, 'slots.json') : undefined;
  const kindsFile = KINDS ? join(dir!, 'kinds.json') : undefined;
  const hook = [
    ...(slotsFile ? ['--import', join(NEW, 'bench/node-slots.hook.ts')] : []),
    ...(kindsFile ? ['--import', join(NEW, 'bench/node-requests.hook.ts')] : []),
  ];
  const script = join(checkout, 'bench/indexer.lib.populate.ts');
  const child = spawn(process.execPath, ['--expose-gc', ...FLAGS, ...flags, ...hook, script], {
    cwd: checkout,
    env: {
      ...(slotsFile && { BENCH_NODE_SLOTS_FILE: slotsFile, BENCH_NODE_SLOTS: String(SLOTS * NODES) }),
      ...(kindsFile && { BENCH_NODE_REQUESTS_FILE: kindsFile }),
      // both sides as a deployment on this chain: 0.2.0 reads the same settings
      ...nodes[0]!.deployment,
      NODE_URL: urls[0]!,
      NODE_URLS: urls.join(','),
      DATABASE_URL: databaseUrl,
      DATABASE_SCHEMA: schema,
      BENCH_TOP: String(GENERATIONS),
      LOG_LEVEL: 'warn',
      // no RSS samples (not reported here): their forced full collections were ~4 % of each side's CPU (180–210 ms)
      BENCH_SAMPLE: '0',
      NODE_TIMEOUT_MS: '30000',
      MALLOC_MMAP_THRESHOLD_: '131072',
      PATH: process.env.PATH,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  const pid = child.pid!;
  let [threads0, threads1] = [threadCpu(pid), threadCpu(pid)];
  let [populator0, populator1] = [processCpuSplit(pid)!, processCpuSplit(pid)!];
  let sampler: NodeJS.Timeout | undefined;
  child.stdout.on('data', (c: Buffer) => {
    const before = out;
    out += c.toString();
    // the child has migrated its schema and starts its clock: PostgreSQL's CPU from here on, and its threads'
    if (!before.includes('syncing\n') && out.includes('syncing\n')) {
      pg0 = postgresCpu();
      [threads0, populator0] = [threadCpu(pid), processCpuSplit(pid)!];
      [threads1, populator1] = [threads0, populator0];
      // a thread's last reading is its end: threads end before the process does, and then the process is gone
      sampler = setInterval(() => {
        const populator = processCpuSplit(pid);
        if (!populator) return;
        populator1 = populator;
        threads1 = new Map([...threads1, ...threadCpu(pid)]);
      }, 250);
    }
  });
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  clearInterval(sampler);
  const pg1 = postgresCpu();
  if (code !== 0) throw new Error(`${checkout}: populator exited with ${code}`);
  const report = JSON.parse(out.trim().split('\n').at(-1)!) as {
    seconds: number;
    syncCpuSeconds: number;
    nodeRequests: number;
  };
  const slots =
    slotsFile && existsSync(slotsFile) ? (JSON.parse(readFileSync(slotsFile, 'utf8')) as Run['slots']) : undefined;
  const kinds = kindsFile ? (JSON.parse(readFileSync(kindsFile, 'utf8')) as { kinds: RequestKinds }).kinds : undefined;
  if (dir) rmSync(dir, { recursive: true, force: true });
  return {
    seconds: report.seconds,
    cpuSeconds: report.syncCpuSeconds,
    postgresCpuSeconds: pg1.user + pg1.system - pg0.user - pg0.system,
    nodeCpuSeconds: nodeCpu() - node0,
    nodeRequests: report.nodeRequests,
    slots,
    kinds,
    split: {
      populator: { user: populator1.user - populator0.user, system: populator1.system - populator0.system },
      threads: threadSplit(threads0, threads1),
      postgres: { user: pg1.user - pg0.user, system: pg1.system - pg0.system },
    },
  };
}

/** splitLine is where a side's CPU went per transaction: user + system µs, the populator's by thread kind */
function splitLine(name: string, { split }: Run, transactions: number): string {
  const us = ({ user, system }: UserSystem): string =>
    `${((1e6 * user) / transactions).toFixed(0)}+${((1e6 * system) / transactions).toFixed(0)}`;
  const threads = Object.entries(split.threads)
    .sort(([, x], [, y]) => y.user + y.system - x.user - x.system)
    .map(([kind, t]) => `${kind} ${us(t)}`);
  return (
    `\n  ${name} user+system µs/tx: populator ${us(split.populator)} (${threads.join(', ')}), ` +
    `PostgreSQL ${us(split.postgres)}`
  );
}

/** idleLine is where a populator left the node's slots idle: its load's first tenth, the eight between, the last. */
function idleLine(name: string, { slots }: Run): string {
  if (!slots) return '';
  const pct = (share: number): string => `${(100 * share).toFixed(1)} %`;
  const between = slots.idleByTenth.slice(1, -1);
  return (
    `\n  ${name}'s node slots idle: first tenth ${pct(slots.idleByTenth[0]!)}, tenths 2–9 ` +
    `${pct(Math.min(...between))}–${pct(Math.max(...between))}, last tenth ${pct(slots.idleByTenth.at(-1)!)}; ` +
    `the whole load ${pct(slots.idle)}`
  );
}

/** kindsLine is a populator's requests per generation by kind (BENCH_AB_KINDS). */
function kindsLine(name: string, { kinds }: Run, generations: number): string {
  return kinds ? `\n  ${name}'s ${kindLines(kinds, generations).join('\n  ')}` : '';
}

/** startNodes runs NODES devnodes serving one chain, each in its own process. */
function startNodes(): Promise<DevnodeChild[]> {
  return Promise.all(
    Array.from({ length: NODES }, () =>
      startDevnodeProcess([
        ...['--generate', String(GENERATIONS), '--seed', 'perf', ...(MAINNET_LIKE ? ['--mainnet-like'] : [])],
        ...['--latency-ms', String(LATENCY_MS), ...workerFlags(SLOTS)],
        ...fixedGenesisArgs(),
        ...nodeFilesArgs(),
      ]),
    ),
  );
}

/** verified checks every stored height of `schema` against the nodes, throwing on any difference. */
async function verified(nodes: readonly DevnodeChild[], databaseUrl: string, schema: string): Promise<number> {
  const urls = nodes.map((n) => n.url);
  const cfg = loadConfig({
    ...nodes[0]!.deployment,
    NODE_URL: urls[0]!,
    NODE_URLS: urls.join(','),
    DATABASE_URL: databaseUrl,
    DATABASE_SCHEMA: schema,
  });
  const lines: string[] = [];
  const { checked, differences } = await verifyChain(
    { cfg, log: pino({ level: 'warn' }), out: (l) => lines.push(l) },
    { full: true },
  );
  if (differences > 0)
    throw new Error(`${schema}: mdw -v --full found ${differences} differences:\n${lines.join('\n')}`);
  return checked;
}

interface Round {
  readonly n: BareRead;
  readonly a: Run;
  readonly b: Run;
  readonly load: number;
}

const gensPerSecond = (r: { seconds: number }): number => (GENERATIONS + 1) / r.seconds;
/** ownCpu is a side's own CPU: its populator's and PostgreSQL's (the node's is not ours to pay on a real node) */
const ownCpu = (r: Run): number => r.cpuSeconds + r.postgresCpuSeconds;
/** spread is a ratio's median and range over the rounds, as printed */
const spread = (values: readonly number[]): string =>
  `${median(values).toFixed(2)} (${Math.min(...values).toFixed(2)}–${Math.max(...values).toFixed(2)})`;

function roundLine(i: number, { n, a, b, load }: Round): string {
  const perTx = (s: number): string => `${((1e6 * s) / n.transactions).toFixed(0)}`;
  const side = (name: string, r: Run): string =>
    `${name} ${gensPerSecond(r).toFixed(1)} gens/s, ${(r.nodeRequests / n.generations).toFixed(2)} req/gen, ` +
    `CPU ${perTx(r.cpuSeconds)} µs/tx = ${(r.cpuSeconds / n.cpuSeconds).toFixed(2)} × n, PostgreSQL ${perTx(r.postgresCpuSeconds)} µs/tx, ` +
    `node ${perTx(r.nodeCpuSeconds)} µs/tx`;
  return (
    `round ${i + 1} (load ${load.toFixed(1)}): n ${gensPerSecond(n).toFixed(1)} gens/s, ` +
    `${(n.requests / n.generations).toFixed(2)} req/gen, CPU ${perTx(n.cpuSeconds)} µs/tx; ${side('A', a)}; ${side('B', b)}; ` +
    `B ÷ A ${(a.seconds / b.seconds).toFixed(2)}, A ÷ n ${(n.seconds / a.seconds).toFixed(2)}, B ÷ n ${(n.seconds / b.seconds).toFixed(2)}; ` +
    `own CPU (populator + PostgreSQL) A ${perTx(ownCpu(a))}, B ${perTx(ownCpu(b))} µs/tx, B ÷ A ${(ownCpu(b) / ownCpu(a)).toFixed(2)}` +
    splitLine('A', a, n.transactions) +
    splitLine('B', b, n.transactions) +
    idleLine('A', a) +
    idleLine('B', b) +
    kindsLine('A', a, n.generations) +
    kindsLine('B', b, n.generations)
  );
}

async function main(): Promise<void> {
  killChildrenOnExit();
  let old: Checkout | undefined;
  let oldDir = process.env.BENCH_AB_OLD;
  let label = oldDir ?? '';
  if (oldDir === undefined) {
    const ref = process.env.BENCH_AB_COMMIT;
    const release = ref === undefined ? releaseCommit(NEW) : undefined;
    old = extractCommit(NEW, ref ?? release!.commit);
    oldDir = old.dir;
    label = `${old.commit.slice(0, 7)}${release ? ` (release ${release.version})` : ''}`;
  }
  const load = { before: loadavg() };
  console.log(
    `A: ${label}; B: the working tree${FLAGS_B.length ? ` with ${FLAGS_B.join(' ')}` : ''}. ${GENERATIONS} ${MAINNET_LIKE ? 'mainnet-like ' : ''}generations, ${NODES} devnode(s) at ${LATENCY_MS} ms with ` +
      `${SLOTS} slots; load ${load.before.map((l) => l.toFixed(1)).join(' ')}`,
  );
  const nodes = await startNodes();
  const urls = nodes.map((n) => n.url);
  const db = await createTestDatabase();
  const rounds: Round[] = [];
  try {
    for (let i = 0; i < ROUNDS; i++) {
      const n = await bareClient(urls, GENERATIONS, SLOTS);
      const runA = (): Promise<Run> => populate(oldDir, nodes, db.url, `ab_a_${i}`);
      const runB = (): Promise<Run> => populate(NEW, nodes, db.url, `ab_b_${i}`, FLAGS_B);
      // A first in even rounds, B first in odd ones
      const [a, b] = i % 2 === 0 ? [await runA(), await runB()] : [await runB(), await runA()].reverse();
      await derivedWhole(db.url, `ab_a_${i}`);
      await derivedWhole(db.url, `ab_b_${i}`);
      const round = { n, a: a!, b: b!, load: loadavg()[0]! };
      rounds.push(round);
      console.log(roundLine(i, round));
      if (VERIFY)
        console.log(
          `  mdw -v --full on B's schema: ${await verified(nodes, db.url, `ab_b_${i}`)} heights, 0 differences`,
        );
    }
  } finally {
    await Promise.all(nodes.map((n) => n.stop()));
    await db.drop();
    await stopTestServer();
    old?.remove();
  }
  const ratios = {
    bOverA: rounds.map((r) => r.a.seconds / r.b.seconds),
    aOverN: rounds.map((r) => r.n.seconds / r.a.seconds),
    bOverN: rounds.map((r) => r.n.seconds / r.b.seconds),
    cpuAOverN: rounds.map((r) => r.a.cpuSeconds / r.n.cpuSeconds),
    cpuBOverN: rounds.map((r) => r.b.cpuSeconds / r.n.cpuSeconds),
    ownCpuBOverA: rounds.map((r) => ownCpu(r.b) / ownCpu(r.a)),
    postgresBOverA: rounds.map((r) => r.b.postgresCpuSeconds / r.a.postgresCpuSeconds),
    populatorBOverA: rounds.map((r) => r.b.cpuSeconds / r.a.cpuSeconds),
  };
  const splitRatio = (pick: (s: Run['split']) => number | undefined): string =>
    spread(rounds.map((r) => (pick(r.b.split) ?? 0) / (pick(r.a.split) ?? 0)));
  const kind = (name: string, part: keyof UserSystem) => (s: Run['split']) => s.threads[name]?.[part];
  console.log(
    `median (min–max) of ${rounds.length} rounds, load ${rounds.map((r) => r.load.toFixed(1)).join(', ')}: ` +
      `gens/s B ÷ A ${spread(ratios.bOverA)}; A ÷ n ${spread(ratios.aOverN)}; B ÷ n ${spread(ratios.bOverN)}; ` +
      `CPU per tx A ÷ n ${spread(ratios.cpuAOverN)}, B ÷ n ${spread(ratios.cpuBOverN)}; own CPU per tx B ÷ A ` +
      `${spread(ratios.ownCpuBOverA)} (populator ${spread(ratios.populatorBOverA)}, PostgreSQL ${spread(ratios.postgresBOverA)})`,
  );
  console.log(
    `B ÷ A by part: populator user ${splitRatio((s) => s.populator.user)}, system ${splitRatio((s) => s.populator.system)}; ` +
      `main thread user ${splitRatio(kind('main', 'user'))}, system ${splitRatio(kind('main', 'system'))}; ` +
      `V8Worker ${splitRatio((s) => (s.threads.V8Worker?.user ?? 0) + (s.threads.V8Worker?.system ?? 0))}; ` +
      `PostgreSQL user ${splitRatio((s) => s.postgres.user)}, system ${splitRatio((s) => s.postgres.system)}`,
  );
  writeResult('populator-ab', {
    benchmark: 'populator-ab',
    date: new Date().toISOString(),
    old: label,
    flagsB: FLAGS_B,
    generations: GENERATIONS,
    mainnetLike: MAINNET_LIKE,
    nodes: NODES,
    latencyMs: LATENCY_MS,
    slots: SLOTS,
    load,
    rounds,
    ratios,
  });
}

await main();
