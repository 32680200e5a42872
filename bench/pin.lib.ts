/**
 * @module CPU affinity for a bench's processes (Linux `taskset`): a server on a core of its own, as a deployment gives
 * it, where on this machine it would share its cores with PostgreSQL, the devnode and the bench's own client.
 */
import { execFileSync } from 'node:child_process';
import { descendantPids } from './process-cpu.lib.ts';

/** pinTree binds `root`, its threads and its live descendants to `cpus` (a taskset list: "0", "1-3"); children forked later inherit it. */
export function pinTree(root: number, cpus: string): void {
  for (const pid of descendantPids(root)) {
    try {
      execFileSync('taskset', ['-a', '-cp', cpus, String(pid)], { stdio: 'ignore' });
    } catch {
      // exited meanwhile
    }
  }
}
