/** @module `-d`: detach from the terminal, write PID_FILE, keep logging to LOG_DIR. */
import { spawn } from 'node:child_process';
import { mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export interface DaemonizeOptions {
  /** Arguments of this process without -d/--daemonize (the child must not fork again). */
  readonly args: readonly string[];
  readonly pidFile: string | undefined;
  readonly logDir: string | undefined;
  readonly env?: NodeJS.ProcessEnv;
  /** Script to run; this process's own entry point by default. */
  readonly entry?: string;
}

/**
 * daemonize starts a detached copy of this process in its own session, with stdin closed and
 * stdout/stderr going to LOG_DIR/daemon.out (or nowhere), writes its pid to PID_FILE, and returns
 * that pid. The caller exits; the child carries on alone.
 */
export function daemonize(opts: DaemonizeOptions): number {
  let out: number | 'ignore' = 'ignore';
  if (opts.logDir) {
    mkdirSync(opts.logDir, { recursive: true });
    out = openSync(join(opts.logDir, 'daemon.out'), 'a');
  }
  const child = spawn(process.execPath, [...process.execArgv, opts.entry ?? process.argv[1]!, ...opts.args], {
    detached: true,
    stdio: ['ignore', out, out],
    env: opts.env ?? process.env,
  });
  if (child.pid === undefined) throw new Error('could not start the daemon process');
  if (opts.pidFile) {
    mkdirSync(dirname(opts.pidFile), { recursive: true });
    writeFileSync(opts.pidFile, `${child.pid}\n`);
  }
  child.unref();
  return child.pid;
}

/** withoutDaemonFlag removes -d/--daemonize, also from combined short flags such as -dps. */
export function withoutDaemonFlag(args: readonly string[]): string[] {
  const result: string[] = [];
  for (const arg of args) {
    if (arg === '-d' || arg === '--daemonize') continue;
    if (/^-[a-zA-Z]{2,}$/.test(arg) && arg.includes('d') && !arg.includes('H')) {
      result.push(arg.replace(/d/g, ''));
      continue;
    }
    result.push(arg);
  }
  return result.filter((a) => a !== '-');
}

/**
 * removeOwnPidFile deletes PID_FILE after a clean stop when it names this process (the daemon `mdw -d` started):
 * a file that names another process (a newer daemon, a foreground run that never wrote it) is left alone.
 */
export function removeOwnPidFile(pidFile: string | undefined, pid = process.pid): void {
  if (!pidFile) return;
  let written: string;
  try {
    written = readFileSync(pidFile, 'utf8').trim();
  } catch {
    return;
  }
  if (written === String(pid)) rmSync(pidFile, { force: true });
}
