/**
 * @module What each test file costs in CPU, for finding the heavy ones: a root hook plugin, which the suite's own hooks
 * (hooks.ts) load when MDW_TEST_CPU_LOG names the file to write:
 *
 *     MDW_TEST_CPU_LOG=/tmp/cpu.ndjson make unit
 *
 * (in a parallel run each file is a root suite of its own, whose hooks these are; a serial run gets one line for all)
 * appends one JSON line per file to MDW_TEST_CPU_LOG, in seconds: `wall`, and of CPU `worker` (the mocha process
 * running the file, from the end of its previous file: the file's imports included), `children` (what it reaped: the `mdw` processes and PostgreSQL clusters the file starts itself) and `pg`
 * (the run's shared PostgreSQL's backends serving the file's process and its children). A backend is found by its
 * database (in its process title) among those the worker made (postgres.ts's databasesMade), sampled every 200 ms;
 * a backend's last 200 ms before it exits are missed, and those of the server's own databases (a CREATE DATABASE)
 * are not counted, so `pg` is a lower bound. `heapMB` is the worker's V8 heap in use at the file's end (garbage
 * included): a worker's files run in one heap, and what one leaves there makes every later collection longer (a file
 * whose measures collect all garbage cost 4 CPU-s alone, 15 in a full run's worker). `end` (epoch ms) and `pid` (the
 * worker) give the run's schedule: which files ran beside which, and which made its tail. The
 * sampling reads only the server's processes: it found them by their clients' ports among every socket of the worker's
 * process tree, the machine's whole TCP table read each time, which cost about a tenth of a core, counted as the
 * file's own (`worker`). Linux only (reads /proc).
 */
import { appendFileSync, readdirSync, readFileSync } from 'node:fs';
import { setInterval, clearInterval } from 'node:timers';
import type Mocha from 'mocha';
import { databasesMade } from './postgres.ts';

const TICKS = 100; // USER_HZ on Linux
const LOG = process.env.MDW_TEST_CPU_LOG!; // hooks.ts loads this module only when it is set

/** statFields are a /proc/<pid>/stat's fields after the command's name, numbered as in proc(5) from 3 (state). */
function statFields(pid: number | 'self'): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined; // exited
  }
}
const field = (fields: string[], n: number): number => Number(fields[n - 3]);

function reapedChildrenTicks(): number {
  const f = statFields('self')!;
  return field(f, 16) + field(f, 17);
}

function childPids(pid: number): number[] {
  try {
    return readdirSync(`/proc/${pid}/task`).flatMap((tid) =>
      readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').split(' ').filter(Boolean).map(Number),
    );
  } catch {
    return [];
  }
}

/** postmasterPid is the shared server's process: the one started with `-p <port>`. */
function postmasterPid(port: number): number | undefined {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const args = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      if (args[0]?.endsWith('/postgres') && args[args.indexOf('-p') + 1] === String(port)) return Number(entry);
    } catch {
      // exited
    }
  }
  return undefined;
}

class BackendSampler {
  readonly #postmaster: number | undefined;
  /** ticks last seen, per backend (pid and start time) serving this file */
  #ticks = new Map<string, number>();
  /** the databases made before this file: theirs are earlier files' */
  #earlier: ReadonlySet<string> = new Set();
  #timer: ReturnType<typeof setInterval> | undefined;

  constructor(port: number) {
    this.#postmaster = postmasterPid(port);
  }

  start(): void {
    this.#ticks = new Map();
    this.#earlier = new Set(databasesMade());
    this.#timer = setInterval(() => this.sample(), 200);
    this.#timer.unref();
  }

  stop(): number {
    this.sample();
    clearInterval(this.#timer);
    return [...this.#ticks.values()].reduce((a, b) => a + b, 0);
  }

  sample(): void {
    if (this.#postmaster === undefined) return;
    const mine = databasesMade();
    for (const pid of childPids(this.#postmaster)) {
      let title: string;
      try {
        title = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      } catch {
        continue;
      }
      // `postgres: <user> <database> <host>(<port>) <activity>`
      const database = title.split(' ')[2];
      const ours = database !== undefined && mine.has(database) && !this.#earlier.has(database);
      const f = ours ? statFields(pid) : undefined;
      if (f) this.#ticks.set(`${pid}@${field(f, 22)}`, field(f, 14) + field(f, 15));
    }
  }
}

// made at the first file: in a serial run the server starts after this module loads
let sampler: BackendSampler | undefined;
let cpuMark = process.cpuUsage();
let childrenMark = reapedChildrenTicks();
let started = Date.now();

export const mochaHooks = {
  beforeAll(this: Mocha.Context): void {
    started = Date.now();
    sampler ??= new BackendSampler(Number(new URL(process.env.TEST_DATABASE_URL ?? 'postgres://x:1/').port));
    sampler.start();
  },
  afterAll(this: Mocha.Context): void {
    const pg = sampler?.stop() ?? 0;
    const cpu = process.cpuUsage(cpuMark);
    const children = reapedChildrenTicks();
    const root = this.test?.parent;
    const file = root?.suites.find((s) => s.file)?.file ?? root?.file ?? '?';
    const line = {
      file: file.slice(file.indexOf('test/')),
      worker: (cpu.user + cpu.system) / 1e6,
      sys: cpu.system / 1e6,
      children: (children - childrenMark) / TICKS,
      pg: pg / TICKS,
      wall: (Date.now() - started) / 1000,
      end: Date.now(),
      pid: process.pid,
      heapMB: Math.round(process.memoryUsage().heapUsed / 2 ** 20),
    };
    appendFileSync(LOG, `${JSON.stringify(line)}\n`);
    cpuMark = process.cpuUsage();
    childrenMark = children;
  },
};
