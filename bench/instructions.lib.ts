/**
 * @module Instruction counts of a child process (valgrind's cachegrind, no cache simulation): unlike CPU time they
 * do not depend on what else the machine runs. A process's count includes its start (Node, module loading, JIT
 * warm-up), so a cost per transaction is taken from two runs over chains of different lengths: the difference of
 * the counts over the difference of the transactions. Node runs with `--single-threaded`: V8's compiler and collector
 * threads, whose share of the work depends on timing and so on the machine's load, do it on the main thread instead.
 */
import { spawn, spawnSync } from 'node:child_process';
import { fixedGenesisArgs, nodeFilesArgs, startDevnodeProcess, workerFlags, type DevnodeChild } from './http.lib.ts';

/** the bare client's slots: as many requests in flight as the populator A/B's node takes */
const SLOTS = 32;

/** valgrindAvailable says whether `valgrind` runs here. */
export function valgrindAvailable(): boolean {
  return spawnSync('valgrind', ['--version']).status === 0;
}

/**
 * startCountedChain serves the populator A/B's chain (`--seed perf`, its fixed genesis, no latency) of `length`
 * generations from a devnode of its own, with its node files, and queues no client fills (workerFlags): with a real
 * node's (100 reads waiting) a devnode on the loaded machine refused 904 of a load's 6 027 requests with 503, each
 * asked again.
 */
export function startCountedChain(length: number): Promise<DevnodeChild> {
  return startDevnodeProcess([
    '--generate',
    String(length),
    '--seed',
    'perf',
    ...workerFlags(SLOTS),
    ...fixedGenesisArgs(),
    ...nodeFilesArgs(),
  ]);
}

/**
 * countedChildEnv is the environment of a counted child (bench/indexer.lib.populate.ts of any commit, or the bare
 * client's) reading `devnode`'s chain up to `top` into `schema`.
 */
export function countedChildEnv(
  devnode: DevnodeChild,
  databaseUrl: string,
  schema: string,
  top: number,
): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    // configured as a deployment on the devnode's chain (its reward rules and genesis accounts, DevnodeChild)
    ...devnode.deployment,
    NODE_URL: devnode.url,
    DATABASE_URL: databaseUrl,
    DATABASE_SCHEMA: schema,
    BENCH_TOP: String(top),
    BENCH_SLOTS: String(SLOTS),
    LOG_LEVEL: 'warn',
    // valgrind slows a process down 30–100 times: no request may time out for it
    NODE_TIMEOUT_MS: '600000',
    // nor may the node's top be asked every 2 s of its clock: ~100 polls more in a load of 2 400 generations than in
    // one of 800, counted per transaction, and as many more as the machine's load slows the run (a catch-up asks the
    // top again only within a batch of the last known one; every commit reads this variable)
    POLL_INTERVAL_MS: '3600000',
    BENCH_SAMPLE: '0',
    MALLOC_MMAP_THRESHOLD_: '131072',
  };
}

/**
 * countInstructions runs `node <args>` under cachegrind with `env` (in `cwd`, else this process's) and resolves with
 * the instructions it executed (its main thread, doing V8's background work too), its last stdout line (the
 * child's JSON report) and the warnings and errors its logger wrote on stdout (logWarnings).
 */
export async function countInstructions(
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  cwd?: string,
): Promise<{ instructions: number; report: string; warnings: string[] }> {
  const child = spawn(
    'valgrind',
    [
      '--tool=cachegrind',
      '--cache-sim=no',
      '--cachegrind-out-file=/dev/null',
      process.execPath,
      '--single-threaded',
      ...args,
    ],
    { env, cwd, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  let err = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (err += c.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  const refs = /I\s+refs:\s+([\d,]+)/.exec(err)?.[1];
  if (code !== 0 || refs === undefined)
    throw new Error(`valgrind node ${args.join(' ')} exited with ${code}: ${err.slice(-2000)}`);
  return {
    instructions: Number(refs.replaceAll(',', '')),
    report: out.trim().split('\n').at(-1) ?? '',
    warnings: logWarnings(out),
  };
}

/**
 * logWarnings are the warnings and errors (pino's level 40 and up) among a child's output lines, each as its message
 * and its `err`: a populator step that failed and was retried is one (`populator step failed; retrying`), and its
 * retry fetches its batch, the one prepared ahead and what was fetched ahead again, thousands of node requests a
 * load more. Pure.
 */
export function logWarnings(out: string): string[] {
  const warnings: string[] = [];
  for (const line of out.split('\n')) {
    if (!line.startsWith('{')) continue;
    let entry: unknown;
    try {
      entry = JSON.parse(line);
    } catch {
      continue;
    }
    if (typeof entry !== 'object' || entry === null) continue;
    const { level, msg, err } = entry as { level?: unknown; msg?: unknown; err?: unknown };
    if (typeof level !== 'number' || level < 40) continue;
    const why = typeof err === 'string' ? err : (err as { message?: unknown } | undefined)?.message;
    warnings.push(typeof why === 'string' ? `${String(msg)}: ${why}` : String(msg));
  }
  return warnings;
}

/** perUnit is the cost of one more unit between two runs: (count₂ − count₁) ÷ (units₂ − units₁). */
export function perUnit(a: { count: number; units: number }, b: { count: number; units: number }): number {
  if (b.units === a.units) throw new RangeError('the two runs must differ in length');
  return (b.count - a.count) / (b.units - a.units);
}

/** A load's counts over the two chains, the shorter first: its populator's and PostgreSQL's backends'. */
export interface LoadCounts {
  readonly populator: readonly number[];
  readonly postgres: readonly number[];
}

/** A load's instructions per transaction: the populator's, PostgreSQL's and their sum, its own. */
export interface OwnPerTransaction {
  readonly populator: number;
  readonly postgres: number;
  readonly own: number;
}

/**
 * ownPerTransaction is a load's instructions per transaction from its counts over two chains of `transactions`
 * (each the difference of the two counts over the difference of the transactions, perUnit). Pure.
 */
export function ownPerTransaction(counts: LoadCounts, transactions: readonly number[]): OwnPerTransaction {
  const of = (c: readonly number[]): number =>
    perUnit({ count: c[0]!, units: transactions[0]! }, { count: c[1]!, units: transactions[1]! });
  const populator = of(counts.populator);
  const postgres = of(counts.postgres);
  return { populator, postgres, own: populator + postgres };
}
