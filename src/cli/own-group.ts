/**
 * @module `mdw dev`'s process group: the command runs in a group of its own, started by a parent that only hands it
 * its signals. A terminal's Ctrl-C signals its whole foreground group: the embedded PostgreSQL, a child, would shut
 * down at once, under the populator and the server. In its own group it hears nothing from the terminal and is
 * stopped last, by the ordered stop the signal starts.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { constants as osConstants } from 'node:os';

/** OWN_GROUP_FLAG marks the process that already leads its own group (a hidden flag of `mdw dev`). */
export const OWN_GROUP_FLAG = '--own-group';

/** needsOwnGroup: the arguments run `mdw dev` in a process that does not lead a group of its own yet. */
export function needsOwnGroup(args: readonly string[]): boolean {
  return args[0] === 'dev' && !args.includes(OWN_GROUP_FLAG);
}

/**
 * runInOwnGroup runs `mdw <args> --own-group` in a process group of its own and hands it this process's signals,
 * resolving with its exit status.
 */
export async function runInOwnGroup(args: readonly string[]): Promise<number> {
  const child = spawn(process.execPath, [...process.execArgv, process.argv[1]!, ...args, OWN_GROUP_FLAG], {
    detached: true,
    stdio: 'inherit',
  });
  const forward = (signal: NodeJS.Signals) => child.kill(signal);
  const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
  for (const signal of signals) process.on(signal, forward);
  const [code, signal] = (await once(child, 'exit')) as [number | null, NodeJS.Signals | null];
  for (const s of signals) process.off(s, forward);
  return code ?? 128 + (signal ? osConstants.signals[signal] : 0);
}
