/** @module `mdw dev` as the binary, started as a terminal would start it, and read from what it prints. */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitFor } from './wait.ts';

const MDW = new URL('../../bin/mdw.js', import.meta.url).pathname;

/** A `mdw dev` started as a terminal would: leading a process group that Ctrl-C signals as a whole. */
export interface DevRun {
  readonly child: ChildProcess;
  readonly output: () => string;
  readonly dir: string;
}

/** The middleware's and its PostgreSQL's ports the kernel's choice (for a run with --node-url, which starts no devnode). */
export const ANY_MIDDLEWARE_PORTS = ['--port', '0', '--websocket', '127.0.0.1:0', '--pg-port', '0'];

/** Every port the kernel's choice: two of these run side by side, as two checkouts would. */
export const ANY_PORTS = [...ANY_MIDDLEWARE_PORTS, '--node-port', '0', '--node-internal-port', '0'];

/**
 * startDev runs `mdw dev` with no traffic (and quick blocks on its devnode), its data in `dir` (a new directory when not given); the
 * ports are the defaults unless `extra` gives them (ANY_PORTS); `env` is what the developer's shell exports beside PATH.
 */
export function startDev(
  extra: readonly string[] = [],
  dir = mkdtempSync(join(tmpdir(), 'mdw-dev-')),
  env: Readonly<Record<string, string>> = {},
): DevRun {
  const args = ['dev', ...extra, '--data-dir', dir, '--no-traffic'];
  // quick blocks for its own devnode (a node given with --node-url keeps its own pace)
  if (!extra.includes('--node-url')) {
    if (!extra.includes('--key-block-interval')) args.push('--key-block-interval', '1000');
    if (!extra.includes('--micro-block-interval')) args.push('--micro-block-interval', '300');
  }
  const child = spawn(process.execPath, [MDW, ...args], {
    env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  return { child, dir, output: () => out };
}

/** untilUp waits for the banner, failing with everything printed so far (at once when mdw dev exits). */
export async function untilUp(run: DevRun): Promise<void> {
  const up = () => /environment is up/.test(run.output());
  await waitFor('mdw dev to print its URLs', () => up() || run.child.exitCode !== null, 90_000, 100);
  if (!up()) throw new Error(`mdw dev exited with ${run.child.exitCode} before it was up:\n${run.output()}`);
}

/** printed is the first word after a banner label (`  API   http://…`). */
export function printed(run: DevRun, label: string): string {
  const match = new RegExp(`^  ${label.replace(/[()]/g, '\\$&')}\\s+(\\S+)`, 'm').exec(run.output());
  if (!match) throw new Error(`mdw dev printed no ${label}:\n${run.output()}`);
  return match[1]!;
}

export function exitCode(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) =>
    child.exitCode !== null ? resolve(child.exitCode) : child.once('exit', (code) => resolve(code)),
  );
}

/** stopDev stops a run as Ctrl-C does (the signal reaches its process group) and waits for its exit status. */
export async function stopDev(run: DevRun): Promise<number | null> {
  if (run.child.exitCode !== null) return run.child.exitCode;
  process.kill(-run.child.pid!, 'SIGINT');
  return exitCode(run.child);
}

/** printedSettings reads the banner's line that runs `mdw -v` on the dev database: its variables. */
export function printedSettings(run: DevRun): Record<string, string> {
  const line = /^ {2}(\S+=.*) node bin\/mdw\.js -v$/m.exec(run.output());
  if (!line) throw new Error(`mdw dev printed no settings for mdw -v:\n${run.output()}`);
  return Object.fromEntries(
    line[1]!.split(' ').map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]),
  );
}

/** runMdw runs the binary with `env` (and PATH) to its end: its exit status and what it printed. */
export function runMdw(
  args: readonly string[],
  env: Record<string, string>,
): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [MDW, ...args],
      { env: { PATH: process.env.PATH ?? '', ...env } },
      (err, stdout, stderr) => resolve({ code: err ? Number(err.code ?? 1) : 0, output: stdout + stderr }),
    );
  });
}
