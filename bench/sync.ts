/**
 * @module Sync benchmark (issues 15, 87 §5, 88): how fast the populator loads a mainnet-shaped chain from nodes
 * that admit what a real one does (`mdw devnode --mainnet-like --latency-ms L`, or `--node-profile 7.2.2`, with the
 * node's default regulators: 5 running and 100 waiting reads, 5 and 50 POSTs, the rest refused; each in its own
 * process), against the node-bound rate:
 * (n) a bare client keeping every worker busy (2 × 5 requests in flight per node): the fewest requests that read the
 *     chain (generation, each micro block's header and transactions, each contract call's info);
 * (c) the populator (own process) on the same chain into an empty schema, every area on, its requests counted by
 *     kind (bench/node-requests.hook.ts);
 * the node bound: what the nodes serve of (c)'s requests per generation, each regulator's workers ÷ its service time
 *     (L, or the profile's as the devnode measured it), the busier regulator bounding.
 * Reports (c) ÷ the node bound, (c) ÷ (n), requests per generation by kind, the nodes' CPU per generation, the
 * projected time for mainnet from one node and from three, and the database's bytes per transaction. After each
 * populator run `mdw -v` checks every stored height against the nodes.
 *
 *   node bench/sync.ts   (BENCH_SYNC_GENERATIONS=1000 BENCH_SYNC_LATENCIES=20,5,100,7.2.2: ms per answer, or a node
 *                         profile; BENCH_SYNC_NODES=3 BENCH_SYNC_NODES_AT=20,100: the paces with a three-node run
 *                         too, by default the first and 100 if listed; BENCH_SYNC_VERIFY=0 skips the verify;
 *                         BENCH_POPULATOR_FLAGS="--cpu-prof" adds Node flags to the populator's process;
 *                         BENCH_SYNC_HYPERCHAIN=10 runs a hyperchain of 10-block epochs)
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { availableParallelism, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import pino from 'pino';
import { expectedShape, MAINNET } from '../src/devnode/traffic/mainnet-like.ts';
import { keyPairFromSeed } from '../src/devnode/keys.ts';
import { httpGet } from '../src/node/http-get.ts';
import { loadConfig } from '../src/config/middleware.ts';
import { verifyChain } from '../src/indexer/maintenance/verify.ts';
import { bareClient } from './bare-client.lib.ts';
import { databaseSize, sizeLines } from './db-size.lib.ts';
import { nodeFilesArgs, startDevnodeProcess, type Child, type DevnodeChild } from './http.lib.ts';
import { machineBusySeconds, mainThreadSeconds, postgresCpuReader, processCpuSeconds } from './process-cpu.lib.ts';
import { createTestDatabase, stopTestServer } from '../test/support/postgres.ts';
import { writeResult } from './results.lib.ts';
import { kindLines, nodeBound, type QueueCounts, type QueueName, type RequestKinds } from './node-requests.lib.ts';

const GENERATIONS = Number(process.env.BENCH_SYNC_GENERATIONS ?? 1000);
/** a real node's read workers (`http_read`'s 5, as the devnode's default regulators): the bare client's pace */
const SLOTS = 5;
/** each pace: ms per answer (`--latency-ms`), or a node profile (`--node-profile`, a version with dots) */
const PACES = (process.env.BENCH_SYNC_LATENCIES ?? '20,5,100,7.2.2').split(',');
const NODES = Number(process.env.BENCH_SYNC_NODES ?? 3);
/** the paces where NODES nodes run after one: the first (20 ms) and 100 ms */
const NODES_AT = (process.env.BENCH_SYNC_NODES_AT?.split(',') ?? [PACES[0]!, '100']).filter((l) => PACES.includes(l));
const isProfile = (pace: string): boolean => pace.includes('.');
/** `mdw -v` over each populated schema afterwards (0 to skip): nothing lost from slow, queueing nodes */
const VERIFY = process.env.BENCH_SYNC_VERIFY !== '0';
const SEED = 'sync-bench';
/** BENCH_SYNC_HYPERCHAIN=L: the nodes run a hyperchain of epochs of L key blocks (the populator's epoch dry-runs too) */
const HYPERCHAIN = process.env.BENCH_SYNC_HYPERCHAIN;
const log = pino({ level: 'warn' });
// the same genesis on every node: a fixed account and beneficiary (the devnode would make random ones)
const ACCOUNT = keyPairFromSeed(new Uint8Array(32).fill(21));
const BENEFICIARY = keyPairFromSeed(new Uint8Array(32).fill(22));

/** cpuOfNodes sums the CPU seconds the devnode processes have used so far. */
const cpuOfNodes = (nodes: readonly Child[]): number => nodes.reduce((sum, n) => sum + processCpuSeconds(n.pid), 0);

/** startNode runs `mdw devnode` in its own process and resolves when it serves. */
function startNode(pace: string): Promise<DevnodeChild> {
  return startDevnodeProcess([
    ...['--generate', String(GENERATIONS), '--mainnet-like', '--seed', SEED],
    ...(HYPERCHAIN ? ['--hyperchain', '--epoch-length', HYPERCHAIN] : []),
    ...(isProfile(pace) ? ['--node-profile', pace] : ['--latency-ms', pace]),
    ...['--beneficiary', BENEFICIARY.secretKey, '--account', `${ACCOUNT.secretKey}:${10n ** 24n}`],
    ...nodeFilesArgs(),
  ]);
}

interface Rate {
  readonly seconds: number;
  readonly requests: number;
  readonly generations: number;
  readonly transactions: number;
  readonly requestsPerSecond: number;
  readonly generationsPerSecond: number;
  readonly txPerSecond: number;
}

function rate(seconds: number, requests: number, generations: number, transactions: number): Rate {
  return {
    seconds,
    requests,
    generations,
    transactions,
    requestsPerSecond: requests / seconds,
    generationsPerSecond: generations / seconds,
    txPerSecond: transactions / seconds,
  };
}

/** PacingCounts are a devnode's counts of its answers (`GET /v2/debug/dev/pacing`, docs/devnode.md). */
interface PacingCounts {
  readonly answers: number;
  readonly answerMs: number;
  readonly queuedMs: number;
  readonly overran: number;
  readonly queues: Record<QueueName, QueueCounts>;
}

type QueueJson = { workers: number; answers: number; answer_ms: number; refused: number };

async function pacingCounts(node: DevnodeChild): Promise<PacingCounts> {
  const { status, text } = await httpGet(new URL(`${node.internalUrl}/v2/debug/dev/pacing`), 30_000);
  if (status !== 200) throw new Error(`pacing counts: ${status} ${text}`);
  const body = JSON.parse(text) as {
    answers: number;
    answer_ms: number;
    queued_ms: number;
    overran: number;
    queues: { http_read: QueueJson; http_update: QueueJson };
  };
  const queue = (q: QueueJson): QueueCounts => ({
    workers: q.workers,
    answers: q.answers,
    answerMs: q.answer_ms,
    refused: q.refused,
  });
  return {
    answers: body.answers,
    answerMs: body.answer_ms,
    queuedMs: body.queued_ms,
    overran: body.overran,
    queues: { read: queue(body.queues.http_read), update: queue(body.queues.http_update) },
  };
}

/**
 * NodeUse is how one node served during a phase: its rate against its ideal (SLOTS ÷ latency), split into how full
 * its slots were and how long an answer held one against the latency. ofIdeal = slotsBusy × latency ÷ answerMs, so
 * a rate below the ideal shows whether the client left slots empty (slotsBusy) or the devnode's answers took longer
 * than the latency (its own CPU, a late event loop: answerMs, overran).
 */
interface NodeUse {
  readonly requestsPerSecond: number;
  readonly ofIdeal: number;
  readonly slotsBusy: number;
  readonly answerMs: number;
  readonly queuedMs: number;
  readonly overran: number;
}

function nodeUse(before: PacingCounts, after: PacingCounts, seconds: number, latencyMs: number): NodeUse {
  const answers = after.answers - before.answers;
  const slotMs = after.answerMs - before.answerMs;
  // the busier regulator's workers: the reads' (5) or the dry-runs' (5), each its own queue
  const busy = (['read', 'update'] as const).map(
    (q) => (after.queues[q].answerMs - before.queues[q].answerMs) / (after.queues[q].workers * seconds * 1000),
  );
  return {
    requestsPerSecond: answers / seconds,
    ofIdeal: answers / seconds / ((SLOTS * 1000) / latencyMs),
    slotsBusy: Math.max(...busy),
    answerMs: slotMs / answers,
    queuedMs: (after.queuedMs - before.queuedMs) / answers,
    overran: after.overran - before.overran,
  };
}

/**
 * busyTimeline samples the nodes' workers' milliseconds in one regulator (reads or POSTs) every `everyMs` until stopped, and gives the slots busy (of all
 * nodes' slots) in each tenth of the first `seconds` sampled (the populator's clock, not its shutdown after it):
 * whether a run's idle slots are at its start, its end or throughout. An answer counts when written, so a sample
 * holds the slot time of the answers it saw end.
 */
function busyTimeline(
  nodes: readonly DevnodeChild[],
  everyMs: number,
  queue: QueueName,
): (seconds: number) => Promise<number[]> {
  const samples: { at: number; slotMs: number }[] = [];
  const sample = async (): Promise<void> => {
    const counts = await Promise.all(nodes.map(pacingCounts));
    samples.push({ at: performance.now(), slotMs: counts.reduce((sum, c) => sum + c.queues[queue].answerMs, 0) });
  };
  const first = sample();
  const timer = setInterval(() => void sample().catch(() => {}), everyMs);
  return async (seconds) => {
    clearInterval(timer);
    await first;
    await sample();
    const start = samples[0]!.at;
    const span = Math.min(samples.at(-1)!.at - start, 1000 * seconds);
    return Array.from({ length: 10 }, (_, tenth) => {
      const inTenth = samples.filter(
        (x) => x.at >= start + (span * tenth) / 10 && x.at <= start + (span * (tenth + 1)) / 10,
      );
      if (inTenth.length < 2) return NaN;
      const ms = inTenth.at(-1)!.at - inTenth[0]!.at;
      return (inTenth.at(-1)!.slotMs - inTenth[0]!.slotMs) / (nodes.length * SLOTS * ms);
    });
  };
}

function useLine(uses: readonly NodeUse[], latencyMs: number): string {
  return uses
    .map(
      (u, i) =>
        `node ${i + 1}: ${u.requestsPerSecond.toFixed(0)} of ${((SLOTS * 1000) / latencyMs).toFixed(0)} req/s = ` +
        `${(100 * u.ofIdeal).toFixed(1)} % of ideal (slots busy ${(100 * u.slotsBusy).toFixed(1)} %, answer ` +
        `${u.answerMs.toFixed(2)} ms for ${latencyMs}, queued ${u.queuedMs.toFixed(1)} ms, ${u.overran} overran)`,
    )
    .join('; ');
}

/**
 * populate (c) runs the populator in its own process from an empty schema to the top, configured as a deployment on
 * the devnode's chain (`deployment`: its reward rules and genesis accounts, DevnodeChild).
 */
async function populate(
  urls: readonly string[],
  deployment: Readonly<Record<string, string>>,
  databaseUrl: string,
  schema: string,
  transactions: number,
  onSyncing: () => Promise<void>,
): Promise<
  Rate & {
    cpuSeconds: number;
    peakRssMiB: number;
    mainThread: MainThread | undefined;
    kinds: RequestKinds;
    lastChainReadSeconds: number;
  }
> {
  // BENCH_POPULATOR_FLAGS="--cpu-prof --cpu-prof-dir=…" profiles the populator on the mainnet-like chain
  const flags = process.env.BENCH_POPULATOR_FLAGS?.split(' ').filter(Boolean) ?? [];
  const script = new URL('indexer.lib.populate.ts', import.meta.url).pathname;
  const hook = new URL('node-requests.hook.ts', import.meta.url).pathname;
  const dir = mkdtempSync(join(tmpdir(), 'sync-requests-'));
  const kindsFile = join(dir, 'kinds.json');
  const child = spawn(process.execPath, ['--expose-gc', '--import', hook, ...flags, script], {
    env: {
      ...deployment,
      BENCH_NODE_REQUESTS_FILE: kindsFile,
      NODE_URL: urls[0]!,
      NODE_URLS: urls.join(','),
      DATABASE_URL: databaseUrl,
      DATABASE_SCHEMA: schema,
      BENCH_TOP: String(GENERATIONS),
      LOG_LEVEL: 'warn',
      NODE_TIMEOUT_MS: '30000',
      ...Object.fromEntries(
        ['BATCH_SIZE', 'BATCH_TRANSACTIONS', 'FETCH_CONCURRENCY'].flatMap((k) =>
          process.env[k] ? [[k, process.env[k]!]] : [],
        ),
      ),
      MALLOC_MMAP_THRESHOLD_: '131072',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  let syncing: Promise<void> | undefined;
  // the populator's main thread on and waiting for a core from the clock's start, read until it exits (then /proc
  // forgets it)
  let thread: { first?: MainThread; last?: MainThread } = {};
  const readThread = setInterval(() => {
    if (syncing) thread = { first: thread.first, last: mainThreadSeconds(child.pid!) ?? thread.last };
  }, 250);
  child.stdout.on('data', (c: Buffer) => {
    out += c.toString();
    // the child has migrated its schema and starts the clock: the other processes' counts start here too
    if (!syncing && out.includes('syncing\n')) {
      syncing = onSyncing();
      thread = { first: mainThreadSeconds(child.pid!) };
    }
  });
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  clearInterval(readThread);
  if (code !== 0) throw new Error(`populator child exited with ${code}`);
  await syncing;
  const { kinds, lastChainReadSeconds } = JSON.parse(readFileSync(kindsFile, 'utf8')) as {
    kinds: RequestKinds;
    lastChainReadSeconds: number;
  };
  rmSync(dir, { recursive: true });
  const r = JSON.parse(out.trim().split('\n').at(-1)!) as {
    seconds: number;
    syncCpuSeconds: number;
    nodeRequests: number;
    peakRssMiB: number;
  };
  return {
    ...rate(r.seconds, r.nodeRequests, GENERATIONS + 1, transactions),
    cpuSeconds: r.syncCpuSeconds,
    peakRssMiB: r.peakRssMiB,
    kinds,
    lastChainReadSeconds,
    mainThread:
      thread.first && thread.last
        ? { running: thread.last.running - thread.first.running, waiting: thread.last.waiting - thread.first.waiting }
        : undefined,
  };
}

/** MainThread is the seconds a process's main thread ran on a core and waited, ready, for one. */
interface MainThread {
  readonly running: number;
  readonly waiting: number;
}

/** CpuPerTx is each party's CPU seconds per transaction during (c). */
interface CpuPerTx {
  readonly populator: number;
  readonly postgres: number;
  readonly nodes: number;
}

/**
 * Bounds is the arithmetic of one (c) run: the ideal node bound, what the populator's main thread and the machine's
 * cores carry at the run's CPU per transaction, what 0.9 of the ideal would need, and which bound stopped the run.
 */
interface Bounds {
  /** `nodes` ideal nodes: nodes × SLOTS ÷ latency requests per second, at (n)'s requests per transaction */
  readonly idealRequestsPerSecond: number;
  /** the node bound (nodeBound) of (c)'s requests per generation, in transactions a second */
  readonly idealTxPerSecond: number;
  /** (c)'s tx/s ÷ the ideal */
  readonly ofIdeal: number;
  /** the populator's CPU (all its threads: V8's collector runs beside the main one) over its wall time, in cores */
  readonly populatorCore: number;
  /**
   * its main thread's share of the wall time running, and ready but waiting for a core (the other parties had both):
   * together what the thread asked for; undefined where the kernel does not say
   */
  readonly thread: { readonly running: number; readonly waiting: number } | undefined;
  /** the main thread's CPU per transaction (the whole process's where the kernel does not say) */
  readonly threadPerTx: number;
  /** the run's three parties' CPU over (c)'s wall time, and the whole machine's (other jobs included), in cores */
  readonly runCores: number;
  readonly machineCores: number;
  /** tx/s the populator's one thread carries at its CPU per transaction, and the cores at everyone's */
  readonly threadTxPerSecond: number;
  readonly coresTxPerSecond: number;
  /** at 0.9 of the ideal: the populator's thread's share of a core, and the cores all three parties need */
  readonly at90: { readonly thread: number; readonly cores: number };
  /** the nodes' slots' mean busy share during (c) */
  readonly slotsBusy: number;
  readonly bound: string;
}

function boundsOf(
  nodes: number,
  latencyMs: number,
  idealTxPerSecond: number,
  populated: Rate & { cpuSeconds: number; mainThread: MainThread | undefined },
  perTx: CpuPerTx,
  cores: number,
  machineCores: number,
  uses: readonly NodeUse[],
): Bounds {
  const idealRequestsPerSecond = (nodes * SLOTS * 1000) / latencyMs;
  const all = perTx.populator + perTx.postgres + perTx.nodes;
  const populatorCore = populated.cpuSeconds / populated.seconds;
  const runCores = (all * populated.transactions) / populated.seconds;
  const slotsBusy = uses.reduce((sum, u) => sum + u.slotsBusy, 0) / uses.length;
  const main = populated.mainThread;
  const thread = main && { running: main.running / populated.seconds, waiting: main.waiting / populated.seconds };
  const threadPerTx = main ? main.running / populated.transactions : perTx.populator;
  // the first bound that is (nearly) full names the run's limit; a thread ready to run all along is full, whether it
  // ran or waited for one of the cores the devnode and PostgreSQL share with it
  const threadFull = thread ? thread.running + thread.waiting >= 0.9 : populatorCore >= 0.85;
  const bound =
    slotsBusy >= 0.9
      ? 'the node(s): their slots were busy'
      : threadFull
        ? "the populator's main thread" +
          (thread
            ? ` (running ${pct(thread.running)} of (c), ready but waiting for a core ${pct(thread.waiting)})`
            : '')
        : machineCores >= 0.85 * cores
          ? `the machine's ${cores} cores (this run's parties and the other jobs)`
          : 'the populator left slots idle with its main thread and the cores not full (its fetching, or its writes ' +
            'waiting for PostgreSQL)';
  return {
    idealRequestsPerSecond,
    idealTxPerSecond,
    ofIdeal: populated.txPerSecond / idealTxPerSecond,
    populatorCore,
    thread,
    threadPerTx,
    runCores,
    machineCores,
    threadTxPerSecond: 1 / threadPerTx,
    coresTxPerSecond: cores / all,
    at90: { thread: 0.9 * idealTxPerSecond * threadPerTx, cores: 0.9 * idealTxPerSecond * all },
    slotsBusy,
    bound,
  };
}

/** boundLines prints a run's Bounds: the arithmetic a reader needs to see which bound stops the targets. */
function boundLines(b: Bounds, perTx: CpuPerTx, nodes: number, latencyMs: number, cores: number): string[] {
  const us = (seconds: number): string => (1e6 * seconds).toFixed(0);
  const all = perTx.populator + perTx.postgres + perTx.nodes;
  const reach = Math.min(b.threadTxPerSecond, b.coresTxPerSecond) / b.idealTxPerSecond;
  return [
    `node bound: ${b.idealTxPerSecond.toFixed(0)} tx/s (the reads: ${nodes} × ${SLOTS} workers ÷ ${latencyMs.toFixed(1)} ms ` +
      `= ${b.idealRequestsPerSecond.toFixed(0)} req/s); (c) reached ${pct(b.ofIdeal)} of it, the nodes' slots busy ` +
      `${pct(b.slotsBusy)} of (c)`,
    `populator: ${us(perTx.populator)} µs/tx in all its threads, ${b.populatorCore.toFixed(2)} cores; its main thread ` +
      `${us(b.threadPerTx)} µs/tx, carrying at most ${b.threadTxPerSecond.toFixed(0)} tx/s at that cost ` +
      `(${(b.threadTxPerSecond / b.idealTxPerSecond).toFixed(2)} × the ideal)`,
    `CPU per tx in (c): populator ${us(perTx.populator)}, PostgreSQL ${us(perTx.postgres)}, devnode(s) ${us(perTx.nodes)} ` +
      `= ${us(all)} µs; cores in use: this run's ${b.runCores.toFixed(2)}, the machine's ${b.machineCores.toFixed(2)} of ` +
      `${cores}; the ${cores} cores carry at most ${b.coresTxPerSecond.toFixed(0)} tx/s ` +
      `(${(b.coresTxPerSecond / b.idealTxPerSecond).toFixed(2)} × the ideal)`,
    `0.9 of the ideal (${(0.9 * b.idealTxPerSecond).toFixed(0)} tx/s) needs the populator's main thread at ` +
      `${b.at90.thread.toFixed(2)} of a core and ${b.at90.cores.toFixed(2)} of the ${cores} cores in all: ` +
      (reach >= 0.9
        ? 'within reach here'
        : `out of reach here (one thread and ${cores} cores carry at most ${reach.toFixed(2)} × the ideal)`),
    `bound of (c): ${b.bound}`,
  ];
}

const hours = (seconds: number): string => `${(seconds / 3600).toFixed(1)} h`;
const pct = (share: number): string => `${(100 * share).toFixed(0)} %`;

/**
 * nodeBoundTxPerSecond is what `nodes` ideal nodes of SLOTS slots at `latencyMs` serve of this chain: SLOTS ÷ latency
 * requests per second each, at the bare client's requests per transaction (the fewest that read the chain).
 */
function nodeBoundTxPerSecond(nodes: number, latencyMs: number, bare: Rate): number {
  return (nodes * SLOTS * 1000) / latencyMs / (bare.requests / bare.transactions);
}

/** projection: mainnet's generations at this chain's generations/s (the chain has mainnet's shape). */
function projectMainnet(r: Rate): { seconds: number; fromTransactions: number } {
  return {
    seconds: MAINNET.generations / r.generationsPerSecond,
    fromTransactions: MAINNET.transactions / r.txPerSecond,
  };
}

function line(name: string, r: Rate): string {
  return (
    `${name}: ${r.requestsPerSecond.toFixed(0)} req/s, ${r.generationsPerSecond.toFixed(1)} gen/s, ` +
    `${r.txPerSecond.toFixed(0)} tx/s; ${(r.requests / r.generations).toFixed(2)} req/generation, ` +
    `${(r.requests / r.transactions).toFixed(3)} req/tx (${r.seconds.toFixed(1)} s)`
  );
}

async function main(): Promise<void> {
  const load = { before: loadavg() };
  console.log(
    `machine load (1/5/15 min): ${load.before.map((l) => l.toFixed(1)).join(' ')}; chain: ${GENERATIONS} mainnet-like generations${HYPERCHAIN ? ` of a hyperchain (epochs of ${HYPERCHAIN})` : ''}; the node's default regulators (${SLOTS} workers for reads, ${SLOTS} for POSTs)`,
  );
  const db = await createTestDatabase();
  const postgresCpu = await postgresCpuReader(db.url);
  const cores = availableParallelism();
  const runs: Record<string, unknown>[] = [];
  let schemaIndex = 0;
  try {
    for (const pace of PACES) {
      // three nodes where NODES_AT says (the 3-node runs), one at the others
      const count = NODES_AT.includes(pace) ? NODES : 1;
      const t0 = performance.now();
      const nodes = await Promise.all(Array.from({ length: count }, () => startNode(pace)));
      const paceName = isProfile(pace) ? `node profile ${pace}` : `${pace} ms`;
      console.log(
        `\n--- ${paceName}: ${count} devnode(s) generated in ${((performance.now() - t0) / 1000).toFixed(0)} s`,
      );
      try {
        for (const n of count > 1 ? [1, count] : [1]) {
          const urls = nodes.slice(0, n).map((x) => x.url);
          const used = nodes.slice(0, n);
          const bareCounts = await Promise.all(used.map(pacingCounts));
          const loadAtStart = loadavg()[0]!;
          const read = await bareClient(urls, GENERATIONS, SLOTS);
          const bare = rate(read.seconds, read.requests, read.generations, read.transactions);
          // a profile's time per answer: the reads' mean in (n), where the workers were kept busy
          const bareAfter = await Promise.all(used.map(pacingCounts));
          const latencyMs = isProfile(pace)
            ? bareAfter.reduce((sum, a, i) => sum + a.queues.read.answerMs - bareCounts[i]!.queues.read.answerMs, 0) /
              bareAfter.reduce((sum, a, i) => sum + a.queues.read.answers - bareCounts[i]!.queues.read.answers, 0)
            : Number(pace);
          const bareUse = bareAfter.map((a, i) => nodeUse(bareCounts[i]!, a, bare.seconds, latencyMs));
          const schema = `sync_${schemaIndex++}`;
          let cpu0 = { postgres: 0, nodes: 0, machine: 0 };
          let counts0: PacingCounts[] = [];
          let timeline: ((seconds: number) => Promise<number[]>) | undefined;
          let dryRunTimeline: ((seconds: number) => Promise<number[]>) | undefined;
          const populated = await populate(urls, nodes[0]!.deployment, db.url, schema, bare.transactions, async () => {
            cpu0 = { postgres: postgresCpu(), nodes: cpuOfNodes(nodes), machine: machineBusySeconds() };
            counts0 = await Promise.all(used.map(pacingCounts));
            timeline = busyTimeline(used, Math.max(200, latencyMs), 'read');
            dryRunTimeline = busyTimeline(used, Math.max(200, latencyMs), 'update');
          });
          const tenths = (await timeline?.(populated.seconds)) ?? [];
          const dryRunTenths = (await dryRunTimeline?.(populated.seconds)) ?? [];
          const countsAfter = await Promise.all(used.map(pacingCounts));
          const populatedUse = countsAfter.map((a, i) => nodeUse(counts0[i]!, a, populated.seconds, latencyMs));
          const bound = nodeBound(
            counts0.map((c) => c.queues),
            countsAfter.map((c) => c.queues),
            GENERATIONS + 1,
            isProfile(pace) ? undefined : Number(pace),
          );
          const toBound = populated.generationsPerSecond / bound.generationsPerSecond;
          // the chain read: from the start to the last generation or micro block asked; the rest asked the node nothing
          const fetchToBound = populated.generations / populated.lastChainReadSeconds / bound.generationsPerSecond;
          // CPU per transaction of each party in (c): what bounds it when the machine's cores are full
          const perTx = {
            populator: populated.cpuSeconds / bare.transactions,
            postgres: (postgresCpu() - cpu0.postgres) / bare.transactions,
            nodes: (cpuOfNodes(nodes) - cpu0.nodes) / bare.transactions,
          };
          const machineCores = (machineBusySeconds() - cpu0.machine) / populated.seconds;
          const size = await databaseSize(db.url, schema, bare.transactions);
          const bytes = size.bytes;
          const verified = VERIFY
            ? await verifyChain(
                {
                  cfg: loadConfig({
                    ...nodes[0]!.deployment,
                    NODE_URL: urls[0]!,
                    NODE_URLS: urls.join(','),
                    DATABASE_URL: db.url,
                    DATABASE_SCHEMA: schema,
                  }),
                  log,
                  out: (l) => console.log(`  verify: ${l}`),
                },
                {},
              )
            : undefined;
          const ratio = populated.generationsPerSecond / bare.generationsPerSecond;
          const projected = projectMainnet(populated);
          const txPerGeneration = bare.transactions / (GENERATIONS + 1);
          const bounds = boundsOf(
            n,
            latencyMs,
            bound.generationsPerSecond * txPerGeneration,
            populated,
            perTx,
            cores,
            machineCores,
            populatedUse,
          );
          const loadAtEnd = loadavg()[0]!;
          console.log(`${n} node(s), ${paceName} (load ${loadAtStart.toFixed(1)} → ${loadAtEnd.toFixed(1)}):`);
          console.log(`  ${line('(n) bare client', bare)}`);
          console.log(`    devnode(s) in (n): ${useLine(bareUse, latencyMs)}`);
          console.log(`  ${line('(c) populator  ', populated)}`);
          console.log(`    devnode(s) in (c): ${useLine(populatedUse, latencyMs)}`);
          console.log(
            `    read workers busy in each tenth of (c): ${tenths.map((b) => (Number.isNaN(b) ? '?' : `${Math.round(100 * b)} %`)).join(', ')}`,
          );
          console.log(
            `    dry-run workers busy in each tenth of (c): ${dryRunTenths.map((b) => (Number.isNaN(b) ? '?' : `${Math.round(100 * b)} %`)).join(', ')}`,
          );
          if (bounds.thread)
            console.log(
              `    populator's main thread: running ${pct(bounds.thread.running)} of (c), ready but waiting for a core ` +
                `${pct(bounds.thread.waiting)}`,
            );
          console.log(
            `  (c) ÷ (n) = ${ratio.toFixed(2)}; (c) ÷ ideal node(s) = ${bounds.ofIdeal.toFixed(2)}; peak RSS ${populated.peakRssMiB} MiB; ` +
              `database ${(bytes / bare.transactions).toFixed(0)} bytes/tx`,
          );
          for (const l of kindLines(populated.kinds, GENERATIONS + 1)) console.log(`  ${l}`);
          for (const [name, q] of [
            ['reads (GETs)', bound.read],
            ['POSTs (dry-runs)', bound.update],
          ] as const)
            console.log(
              `  ${name}: ${q.answersPerGeneration.toFixed(2)} answers/generation (${q.refusedPerGeneration.toFixed(3)} ` +
                `refused) × ${q.serviceMs.toFixed(2)} ms ÷ ${q.workers} workers = ${q.generationsPerSecond.toFixed(1)} gen/s`,
            );
          console.log(
            `  NODE BOUND ${bound.generationsPerSecond.toFixed(1)} gen/s (the ${bound.bound === 'read' ? 'reads' : 'POSTs'}); ` +
              `(c) ${populated.generationsPerSecond.toFixed(1)} gen/s; (c) ÷ node bound = ${toBound.toFixed(2)}; ` +
              `the nodes' CPU ${((1000 * perTx.nodes * bare.transactions) / (GENERATIONS + 1)).toFixed(2)} ms/generation`,
          );
          console.log(
            `  the reads and the dry-runs one after the other (neither regulator working while the other does): ` +
              `${bound.oneAfterOther.toFixed(1)} gen/s; (c) ÷ that ${(populated.generationsPerSecond / bound.oneAfterOther).toFixed(2)}`,
          );
          console.log(
            `  the chain read in ${populated.lastChainReadSeconds.toFixed(1)} s of ${populated.seconds.toFixed(1)} ` +
              `(÷ node bound ${fetchToBound.toFixed(2)}); after the last chain read ${(populated.seconds - populated.lastChainReadSeconds).toFixed(1)} s ` +
              `(the last batches' writes, the derivation of what the catch-up gathered)`,
          );
          for (const l of boundLines(bounds, perTx, n, latencyMs, cores)) console.log(`  ${l}`);
          console.log(
            `  mainnet (${MAINNET.generations} generations) projected: ${hours(projected.seconds)} ` +
              `(${hours(projected.fromTransactions)} by its ${MAINNET.transactions} transactions); ` +
              `node bound: ${hours(MAINNET.generations / bound.generationsPerSecond)}; (n): ${hours(projectMainnet(bare).seconds)}`,
          );
          for (const l of sizeLines(size, bare.transactions)) console.log(`  ${l}`);
          if (verified)
            console.log(
              `  mdw -v: ${verified.checked} heights checked, ${verified.differences} difference(s)${verified.differences === 0 ? ' (clean)' : ''}`,
            );
          runs.push({
            pace,
            load: [loadAtStart, loadAtEnd],
            kinds: populated.kinds,
            nodeBound: bound,
            toBound,
            fetchToBound,
            nodeCpuPerGeneration: (perTx.nodes * bare.transactions) / (GENERATIONS + 1),
            latencyMs,
            nodes: n,
            bare,
            populated,
            ratio,
            bytesPerTx: bytes / bare.transactions,
            database: size,
            projected,
            verified,
            cpuPerTx: perTx,
            nodeUse: { bare: bareUse, populated: populatedUse },
            bounds,
            tenths,
            dryRunTenths,
          });
        }
      } finally {
        await Promise.all(nodes.map((n) => n.stop()));
      }
    }
  } finally {
    await db.drop();
    await stopTestServer();
  }
  const all = runs as unknown as Measured[];
  console.log(
    '\nsummary (targets: (c) ÷ node bound ≥ 0.9 at one 20 ms node; mainnet ≤ 12 h from one node, ≤ 4 h from three):',
  );
  for (const r of all) {
    const nOfIdeal = r.nodeUse.bare.reduce((sum, u) => sum + u.ofIdeal, 0) / r.nodeUse.bare.length;
    const paceName = isProfile(r.pace) ? `node profile ${r.pace}` : `${r.pace} ms`;
    console.log(
      `  ${r.nodes} node(s), ${paceName}, load ${r.load.map((l) => l.toFixed(1)).join('→')}: ` +
        `${(r.populated.requests / r.populated.generations).toFixed(2)} req/generation, (c) ` +
        `${r.populated.generationsPerSecond.toFixed(1)} gen/s ÷ node bound ${r.nodeBound.generationsPerSecond.toFixed(1)} ` +
        `(the ${r.nodeBound.bound === 'read' ? 'reads' : 'POSTs'}) = ${r.toBound.toFixed(2)}, its chain read ${r.fetchToBound.toFixed(2)}; (c) ÷ (n) ${r.ratio.toFixed(2)}; ` +
        `nodes' CPU ${(1000 * r.nodeCpuPerGeneration).toFixed(2)} ms/generation; mainnet from (c) ${hours(r.projected.seconds)}, ` +
        `node bound ${hours(MAINNET.generations / r.nodeBound.generationsPerSecond)}`,
    );
    console.log(
      `    devnode(s) gave (n) ${(100 * nOfIdeal).toFixed(1)} % of their ideal; (c) got ${pct(r.bounds.ofIdeal)} ` +
        `of it with the slots busy ${pct(r.bounds.slotsBusy)}` +
        (Number.isFinite(middle(r)) ? ` (${pct(middle(r))} in tenths 2-9)` : '') +
        `, the populator at ` +
        `${r.bounds.populatorCore.toFixed(2)} cores, the machine at ${r.bounds.machineCores.toFixed(2)} of ` +
        `${cores} cores; bound: ${r.bounds.bound}`,
    );
  }
  for (const pace of NODES_AT) {
    const one = all.find((r) => r.nodes === 1 && r.pace === pace);
    const three = all.find((r) => r.nodes === NODES && NODES > 1 && r.pace === pace);
    if (one && three) scalingLines(one, three, cores);
  }
  const shape = expectedShape();
  console.log(
    `mainnet shape assumed (src/devnode/traffic/mainnet-like.ts, docs/devnode.md): ${MAINNET.generations} generations and ` +
      `${MAINNET.transactions} transactions (mid 2025: ae_mdw issue #2152 and its status example's mdw_tx_index); the profile's ${shape.microBlocks} micro blocks and ${shape.transactions} ` +
      `transactions per generation, ${100 * shape.callShare} % contract calls`,
  );
  const after = loadavg();
  console.log(`machine load after (1/5/15 min): ${after.map((l) => l.toFixed(1)).join(' ')}`);
  writeResult('sync', {
    benchmark: 'sync',
    date: new Date().toISOString(),
    command: 'make bench ONLY=sync',
    generations: GENERATIONS + 1,
    slots: SLOTS,
    load: { before: load.before, after },
    mainnet: MAINNET,
    runs,
  });
}

type Run = {
  latencyMs: number;
  nodes: number;
  populated: Rate;
  bare: Rate;
  ratio: number;
  projected: { seconds: number };
};
type Measured = Run & {
  pace: string;
  load: number[];
  nodeBound: ReturnType<typeof nodeBound>;
  toBound: number;
  fetchToBound: number;
  nodeCpuPerGeneration: number;
  cpuPerTx: CpuPerTx;
  bounds: Bounds;
  nodeUse: { bare: NodeUse[]; populated: NodeUse[] };
  tenths: number[];
};

/**
 * middle is the nodes' slots busy in a run's middle, without its start (the first heights, the limits' slow start)
 * and its end (the last batches prepared and written once every height is fetched), which weigh three times more in
 * a run three times shorter: the slots' use there is what the populator does with a long chain such as mainnet's.
 * NaN for a run too short for a sample in each tenth.
 */
function middle(r: Pick<Measured, 'tenths'>): number {
  const inner = r.tenths.slice(1, 9).filter((b) => !Number.isNaN(b));
  return inner.reduce((sum, b) => sum + b, 0) / inner.length;
}

/** scalingLines prints three ÷ one at one latency: in all, what the cores allow, in the run's middle, and the thread. */
function scalingLines(one: Measured, three: Measured, cores: number): void {
  // what the cores allow: at the one-node run's CPU per tx, the cores carry C tx/s; one node serves at most B,
  // three 3B, so the populator's three-node rate over its one-node rate can show at most min(3B, C) ÷ min(B, C)
  const cpu = one.cpuPerTx.populator + one.cpuPerTx.postgres + one.cpuPerTx.nodes;
  const coresTx = cores / cpu;
  const bound = nodeBoundTxPerSecond(1, one.latencyMs, one.bare);
  console.log(
    `  ${NODES} nodes ÷ 1 node (populator, ${one.latencyMs} ms): ${(three.populated.generationsPerSecond / one.populated.generationsPerSecond).toFixed(2)}; ` +
      `${NODES} ideal nodes serve ${(NODES * bound).toFixed(0)} tx/s, which needs ${(NODES * bound * cpu).toFixed(2)} cores at the ` +
      `one-node run's ${(1e6 * cpu).toFixed(0)} µs of CPU per tx (populator, PostgreSQL, devnodes); the ${cores} cores carry ` +
      `${coresTx.toFixed(0)} tx/s, so this machine can show at most ${(Math.min(NODES * bound, coresTx) / Math.min(bound, coresTx)).toFixed(2)} ×`,
  );
  // a run too short for a sample in each tenth has no middle to show
  if (Number.isFinite(middle(one)) && Number.isFinite(middle(three)))
    console.log(
      `    steady state (tenths 2-9 of (c)): slots busy ${pct(middle(one))} with one node, ` +
        `${pct(middle(three))} with ${NODES}: ${NODES} ÷ 1 there ${((NODES * middle(three)) / middle(one)).toFixed(2)}`,
    );
  // and the populator's main thread, wherever it runs: 2.5 × one ideal node at its three-node CPU per transaction
  const thread = three.bounds.threadPerTx;
  console.log(
    `    2.5 × one ideal node (${(2.5 * bound).toFixed(0)} tx/s) needs the populator's main thread at ` +
      `${(2.5 * bound * thread).toFixed(2)} of a core at the three-node run's ${(1e6 * thread).toFixed(0)} µs per tx ` +
      `(it carries at most ${(1 / thread).toFixed(0)} tx/s = ${(1 / thread / bound).toFixed(2)} × one ideal node)`,
  );
}

await main();
