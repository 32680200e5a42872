/**
 * @module Instruction counts of a child process (valgrind's cachegrind, no cache simulation): unlike CPU time they
 * do not depend on what else the machine runs. A process's count includes its start (Node, module loading, JIT
 * warm-up), so a cost per transaction is taken from two runs over chains of different lengths: the difference of
 * the counts over the difference of the transactions. Node runs with `--single-threaded`: V8's compiler and collector
 * threads, whose share of the work depends on timing and so on the machine's load, do it on the main thread instead.
 */
import { spawn, spawnSync } from 'node:child_process';

/** valgrindAvailable says whether `valgrind` runs here. */
export function valgrindAvailable(): boolean {
  return spawnSync('valgrind', ['--version']).status === 0;
}

/**
 * countInstructions runs `node <args>` under cachegrind with `env` and resolves with the instructions it executed
 * (its main thread, doing V8's background work too) and its last stdout line (the child's JSON report).
 */
export async function countInstructions(
  args: readonly string[],
  env: NodeJS.ProcessEnv,
): Promise<{ instructions: number; report: string }> {
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
    { env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  let err = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (err += c.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  const refs = /I\s+refs:\s+([\d,]+)/.exec(err)?.[1];
  if (code !== 0 || refs === undefined)
    throw new Error(`valgrind node ${args.join(' ')} exited with ${code}: ${err.slice(-2000)}`);
  return { instructions: Number(refs.replaceAll(',', '')), report: out.trim().split('\n').at(-1) ?? '' };
}

/** perUnit is the cost of one more unit between two runs: (count₂ − count₁) ÷ (units₂ − units₁). */
export function perUnit(a: { count: number; units: number }, b: { count: number; units: number }): number {
  if (b.units === a.units) throw new RangeError('the two runs must differ in length');
  return (b.count - a.count) / (b.units - a.units);
}
