/**
 * @module CPU seconds spent so far (Linux /proc) by a process, or by a process tree: the process,
 * its live descendants and the children it has reaped. Used to see where a run's CPU went, e.g. how
 * much PostgreSQL (the postmaster and its backends) spent while the populator loaded the chain.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dataDirectory } from '../src/db/schema/admin.ts';

const TICKS_PER_SECOND = 100;

/** CPU seconds in user mode and in the kernel */
export interface UserSystem {
  readonly user: number;
  readonly system: number;
}

interface Stat {
  readonly name: string;
  readonly ppid: number;
  /** its own user and system time, in seconds */
  readonly own: UserSystem;
  /** its reaped children's user and system time, in seconds */
  readonly reaped: UserSystem;
}

function stat(pid: number, path = `/proc/${pid}/stat`): Stat | undefined {
  try {
    const text = readFileSync(path, 'utf8');
    // fields after the parenthesised command name, which may itself contain spaces
    const f = text.slice(text.lastIndexOf(')') + 2).split(' ');
    const seconds = (i: number): number => Number(f[i]) / TICKS_PER_SECOND;
    const name = text.slice(text.indexOf('(') + 1, text.lastIndexOf(')'));
    return {
      name,
      ppid: Number(f[1]),
      own: { user: seconds(11), system: seconds(12) },
      reaped: { user: seconds(13), system: seconds(14) },
    };
  } catch {
    return undefined;
  }
}

/**
 * processCpuSplit is process `pid`'s user and system time so far, all its threads (those that ended too), undefined
 * once it has gone.
 */
export function processCpuSplit(pid: number): UserSystem | undefined {
  return stat(pid)?.own;
}

/**
 * threadCpu is each live thread of process `pid` by thread id: its name (the main thread's is "main") and its user
 * and system time so far. Empty once the process has gone.
 */
export function threadCpu(pid: number): Map<number, UserSystem & { readonly name: string }> {
  const threads = new Map<number, UserSystem & { readonly name: string }>();
  let tids: string[];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return threads;
  }
  for (const tid of tids) {
    const s = stat(pid, `/proc/${pid}/task/${tid}/stat`);
    if (!s) continue;
    const name = Number(tid) === pid ? 'main' : s.name;
    threads.set(Number(tid), { name, ...s.own });
  }
  return threads;
}

/** processCpuSeconds is the user and system time process `pid` itself has used so far. */
export function processCpuSeconds(pid: number): number {
  const s = processCpuSplit(pid);
  if (!s) throw new Error(`no process ${pid}`);
  return s.user + s.system;
}

/**
 * threadSplit is the CPU each kind of thread (by name: main, V8Worker, libuv-worker …) of one process used between
 * two threadCpu readings: a thread started in between counts from zero, one ended in between is missing.
 */
export function threadSplit(
  before: ReturnType<typeof threadCpu>,
  after: ReturnType<typeof threadCpu>,
): Record<string, UserSystem> {
  const kinds: Record<string, { user: number; system: number }> = {};
  for (const [tid, t] of after) {
    const from = before.get(tid);
    const kind = (kinds[t.name] ??= { user: 0, system: 0 });
    kind.user += t.user - (from?.user ?? 0);
    kind.system += t.system - (from?.system ?? 0);
  }
  return kinds;
}

/** treeCpuSeconds sums user and system time of `root`, its live descendants and its reaped children. */
export function treeCpuSeconds(root: number): number {
  const { user, system } = treeCpuSplit(root);
  return user + system;
}

/** treeCpuSplit is treeCpuSeconds split into user and system time. */
export function treeCpuSplit(root: number): UserSystem {
  let [user, system] = [0, 0];
  for (const pid of descendantPids(root)) {
    const s = stat(pid);
    if (!s) continue;
    user += s.own.user + s.reaped.user;
    system += s.own.system + s.reaped.system;
  }
  return { user, system };
}

/** descendantPids lists `root` and every live process below it. */
export function descendantPids(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const s = stat(Number(entry));
    if (s) children.set(s.ppid, [...(children.get(s.ppid) ?? []), Number(entry)]);
  }
  const found = [root];
  for (let i = 0; i < found.length; i++) found.push(...(children.get(found[i]!) ?? []));
  return found;
}

/** postmasterPid reads the server's pid from postmaster.pid in its data directory (a local server). */
export function postmasterPid(dataDirectory: string): number {
  return Number(readFileSync(`${dataDirectory}/postmaster.pid`, 'utf8').split('\n')[0]);
}

/** postgresCpuReader reads the CPU seconds of the whole local PostgreSQL server (postmaster and backends). */
export async function postgresCpuReader(databaseUrl: string): Promise<() => number> {
  const read = await postgresCpuSplitReader(databaseUrl);
  return () => {
    const { user, system } = read();
    return user + system;
  };
}

/** postgresCpuSplitReader is postgresCpuReader split into user and system time. */
export async function postgresCpuSplitReader(databaseUrl: string): Promise<() => UserSystem> {
  const pid = postmasterPid(await dataDirectory(databaseUrl));
  return () => treeCpuSplit(pid);
}

/**
 * machineBusySeconds is the CPU time every core of the machine has been busy so far (`/proc/stat`: all but idle and
 * I/O wait), whoever used it: over a run, against its wall time × cores, how full the machine was.
 */
export function machineBusySeconds(): number {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  const [user, nice, system, , , irq, softirq, steal] = fields as [number, ...number[]];
  return (user + nice! + system! + irq! + softirq! + steal!) / TICKS_PER_SECOND;
}

/**
 * mainThreadSeconds is how long the main thread of process `pid` has run on a core and waited for one while ready to
 * run (`/proc/<pid>/schedstat`, the kernel's schedstats), undefined when the kernel does not say. On a loaded machine
 * the wait, not the thread's own CPU time, is what stretches a single-threaded process's work; running and waiting
 * together are what the thread asked of the machine.
 */
export function mainThreadSeconds(pid: number): { running: number; waiting: number } | undefined {
  try {
    const [running, waiting] = readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ').map(Number);
    return Number.isFinite(running) && Number.isFinite(waiting)
      ? { running: running! / 1e9, waiting: waiting! / 1e9 }
      : undefined;
  } catch {
    return undefined;
  }
}
