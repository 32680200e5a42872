/**
 * @module CPU affinity for a bench's processes (Linux `taskset`): a server on a core of its own, as a deployment gives
 * it, where on this machine it would share its cores with PostgreSQL, the devnode and the bench's own client.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/** descendants lists `root` and every live process below it. */
function descendants(root: number): number[] {
  const parents = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const text = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(text.slice(text.lastIndexOf(')') + 2).split(' ')[1]);
      parents.set(ppid, [...(parents.get(ppid) ?? []), Number(entry)]);
    } catch {
      // gone meanwhile
    }
  }
  const found = [root];
  for (let i = 0; i < found.length; i++) found.push(...(parents.get(found[i]!) ?? []));
  return found;
}

/** pinTree binds `root`, its threads and its live descendants to `cpus` (a taskset list: "0", "1-3"); children forked later inherit it. */
export function pinTree(root: number, cpus: string): void {
  for (const pid of descendants(root)) {
    try {
      execFileSync('taskset', ['-a', '-cp', cpus, String(pid)], { stdio: 'ignore' });
    } catch {
      // exited meanwhile
    }
  }
}
