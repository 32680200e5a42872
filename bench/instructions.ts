/**
 * @module The populator's instructions per transaction ÷ the bare client's (issue 40's CPU target, ≤ 1.6), counted
 * by valgrind (bench/instructions.lib.ts), which no other job on the machine changes. Both read the same devnode
 * chains (`--seed perf`, the populator A/B's chain, no latency): the bare client of bench/bare-client.lib.ts (every
 * answer parsed losslessly, nothing else) and the populator (bench/indexer.lib.populate.ts: the whole load into an
 * empty schema, every derived area, configured for the devnode's chain as the A/B's populators are), each alone in
 * its process (Node `--predictable` besides valgrind's `--single-threaded`), over chains of two lengths; each cost per
 * transaction is the difference of the two counts over the difference of the transactions (Node's start, module
 * loading and the schema's migrations cancel). The node's top is not polled by the clock, and the devnode refuses no
 * request (countedChildEnv, startCountedChain); a count still moves with how the answers arrive in a slowed-down
 * process (V8's collections follow it: bench/own-instructions-ab.ts), so the two chains differ by 6000 transactions.
 * Devnodes and PostgreSQL run in processes of their own and are not counted (PostgreSQL's share:
 * bench/postgres-instructions.ts).
 *
 *   node bench/instructions.ts   (make bench ONLY=instructions; needs valgrind; BENCH_INSTRUCTIONS_GENERATIONS=200,800
 *                                 (the two lengths; about half an hour on a loaded machine),
 *                                 BENCH_INSTRUCTIONS_SIDES=bare,populator (or one of them),
 *                                 BENCH_INSTRUCTIONS_FLAGS="…" Node flags of the populator's process)
 *   BENCH_INSTRUCTIONS_PROFILE=1 node bench/instructions.ts   (no valgrind: where the populator's time goes, by stage
 *                                 and by function (self time), from a `--cpu-prof` of one load of the longer chain,
 *                                 `--single-threaded`)
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestDatabase, stopTestServer } from '../test/support/postgres.ts';
import { selfTimes, stageShares, type CpuProfile } from './cpu-profile.lib.ts';
import { killChildrenOnExit } from './http.lib.ts';
import {
  countedChildEnv,
  countInstructions,
  perUnit,
  startCountedChain,
  valgrindAvailable,
} from './instructions.lib.ts';
import { writeResult } from './results.lib.ts';

const LENGTHS = (process.env.BENCH_INSTRUCTIONS_GENERATIONS ?? '200,800').split(',').map(Number);
const SIDES = (process.env.BENCH_INSTRUCTIONS_SIDES ?? 'bare,populator').split(',').filter(Boolean);
const FLAGS = process.env.BENCH_INSTRUCTIONS_FLAGS?.split(' ').filter(Boolean) ?? [];
const PROFILE = process.env.BENCH_INSTRUCTIONS_PROFILE === '1';
/** the profile's functions listed by self time */
const SELF_TIMES = 25;
const CHILDREN = {
  bare: new URL('instructions.lib.bare.ts', import.meta.url).pathname,
  populator: new URL('indexer.lib.populate.ts', import.meta.url).pathname,
} as const;

/** One side's counts over the two chains. */
interface Side {
  readonly instructions: number[];
  readonly transactions: number[];
}

/** profile loads the longer chain once with `--cpu-prof` (no valgrind) and prints the populator's time by stage. */
async function profile(): Promise<void> {
  const top = LENGTHS.at(-1)!;
  killChildrenOnExit();
  const dir = mkdtempSync(join(tmpdir(), 'mdw-bench-profile-'));
  const db = await createTestDatabase();
  const devnode = await startCountedChain(top);
  try {
    const child = spawn(
      process.execPath,
      [
        ...['--single-threaded', '--predictable', '--expose-gc', '--cpu-prof', `--cpu-prof-dir=${dir}`],
        CHILDREN.populator,
      ],
      { env: countedChildEnv(devnode, db.url, 'profiled', top), stdio: ['ignore', 'ignore', 'inherit'] },
    );
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    if (code !== 0) throw new Error(`the populator exited with ${code}`);
    const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'))!;
    const cpuProfile = JSON.parse(readFileSync(join(dir, file), 'utf8')) as CpuProfile;
    const shares = stageShares(cpuProfile);
    const busy = [...shares.values()].reduce((a, b) => a + b, 0);
    console.log(`the populator's busy time by stage, one load of ${top} generations (--cpu-prof, --single-threaded):`);
    for (const [stage, ms] of [...shares].sort((a, b) => b[1] - a[1]))
      console.log(`  ${((100 * ms) / busy).toFixed(1).padStart(5)} %  ${ms.toFixed(0).padStart(6)} ms  ${stage}`);
    console.log(`the ${SELF_TIMES} functions of most self time (where the samples were taken):`);
    for (const [name, ms] of selfTimes(cpuProfile, SELF_TIMES))
      console.log(`  ${((100 * ms) / busy).toFixed(1).padStart(5)} %  ${ms.toFixed(0).padStart(6)} ms  ${name}`);
  } finally {
    await devnode.stop();
    await db.drop();
    await stopTestServer();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  if (!valgrindAvailable()) {
    console.log('instruction counts skipped: valgrind is not installed');
    return;
  }
  killChildrenOnExit();
  const db = await createTestDatabase();
  const sides = new Map<string, Side>(SIDES.map((s) => [s, { instructions: [], transactions: [] }]));
  const lengths = LENGTHS;
  if (lengths.length !== 2 || !(lengths[0]! < lengths[1]!))
    throw new Error('BENCH_INSTRUCTIONS_GENERATIONS: two lengths, the shorter first');
  try {
    for (const length of lengths) {
      const devnode = await startCountedChain(length);
      try {
        const env = countedChildEnv(devnode, db.url, `instructions_${length}`, length);
        for (const [name, side] of sides) {
          const args = [
            '--predictable',
            ...(name === 'populator' ? ['--expose-gc', ...FLAGS, CHILDREN.populator] : [CHILDREN.bare]),
          ];
          const { instructions, report } = await countInstructions(args, env);
          side.instructions.push(instructions);
          // the populator's report counts no transactions: the bare client's of the same chain stand for them
          side.transactions.push((JSON.parse(report) as { transactions?: number }).transactions ?? NaN);
        }
      } finally {
        await devnode.stop();
      }
    }
  } finally {
    await db.drop();
    await stopTestServer();
  }
  const perTx = new Map<string, number>();
  const bare = sides.get('bare');
  for (const [name, side] of sides) {
    const txs = name === 'bare' ? side.transactions : (bare?.transactions ?? []);
    if (txs.length < 2) {
      console.log(
        `${name}: ${side.instructions.join(', ')} instructions (no transaction count: run the bare side too)`,
      );
      continue;
    }
    const run = (i: number): { count: number; units: number } => ({ count: side.instructions[i]!, units: txs[i]! });
    perTx.set(name, perUnit(run(0), run(1)));
  }
  const kilo = (n: number | undefined): string => (n === undefined ? '–' : `${(n / 1000).toFixed(1)}k`);
  const ratio = (perTx.get('populator') ?? NaN) / (perTx.get('bare') ?? NaN);
  console.log(
    `instructions per transaction (valgrind, chains of ${lengths.join(' and ')} generations, ` +
      `${bare?.transactions.join(' and ') ?? '?'} txs): bare client ${kilo(perTx.get('bare'))}, ` +
      `populator ${kilo(perTx.get('populator'))}; populator ÷ bare client ${ratio.toFixed(2)} (target ≤ 1.6)`,
  );
  writeResult('instructions', {
    benchmark: 'instructions',
    date: new Date().toISOString(),
    command: 'node bench/instructions.ts',
    generations: lengths,
    flags: FLAGS,
    sides: Object.fromEntries(sides),
    perTransaction: Object.fromEntries(perTx),
    populatorOverBare: ratio,
  });
}

await (PROFILE ? profile() : main());
