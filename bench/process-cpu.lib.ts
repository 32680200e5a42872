/**
 * @module CPU seconds spent so far (Linux /proc) by a process, or by a process tree: the process,
 * its live descendants and the children it has reaped. Used to see where a run's CPU went, e.g. how
 * much PostgreSQL (the postmaster and its backends) spent while the populator loaded the chain.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dataDirectory } from '../src/db/schema/admin.ts';

const TICKS_PER_SECOND = 100;

interface Stat {
  readonly ppid: number;
  readonly own: number;
  readonly reaped: number;
}

function stat(pid: number): Stat | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // fields after the parenthesised command name, which may itself contain spaces
    const f = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return { ppid: Number(f[1]), own: Number(f[11]) + Number(f[12]), reaped: Number(f[13]) + Number(f[14]) };
  } catch {
    return undefined;
  }
}

/** processCpuSeconds is the user and system time process `pid` itself has used so far. */
export function processCpuSeconds(pid: number): number {
  const s = stat(pid);
  if (!s) throw new Error(`no process ${pid}`);
  return s.own / TICKS_PER_SECOND;
}

/** treeCpuSeconds sums user and system time of `root`, its live descendants and its reaped children. */
export function treeCpuSeconds(root: number): number {
  const stats = new Map<number, Stat>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const s = stat(Number(entry));
    if (s) stats.set(Number(entry), s);
  }
  const rootStat = stats.get(root);
  if (!rootStat) return 0;
  let ticks = rootStat.own + rootStat.reaped;
  const pending = [root];
  while (pending.length > 0) {
    const parent = pending.pop()!;
    for (const [pid, s] of stats) {
      if (s.ppid !== parent) continue;
      ticks += s.own + s.reaped;
      pending.push(pid);
    }
  }
  return ticks / TICKS_PER_SECOND;
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
  const pid = postmasterPid(await dataDirectory(databaseUrl));
  return () => treeCpuSeconds(pid);
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
