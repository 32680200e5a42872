/** @module A running `mdw` process of a test, read from the JSON lines it logs. */
import { spawn, type ChildProcess } from 'node:child_process';
import { waitFor } from './wait.ts';

const MDW = new URL('../../bin/mdw.js', import.meta.url).pathname;

/** A running `mdw` process with its JSON log lines. */
export interface MdwProcess {
  readonly child: ChildProcess;
  readonly lines: () => Record<string, unknown>[];
  /** the last 4000 characters it printed */
  readonly output: () => string;
}

/** startMdw starts the binary with exactly `env` (give it PATH). */
export function startMdw(args: readonly string[], env: Record<string, string>): MdwProcess {
  const child = spawn(process.execPath, [MDW, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  return {
    child,
    output: () => out.slice(-4000),
    lines: () =>
      out
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as Record<string, unknown>),
  };
}

/** logged is the lines a process logged whose message matches `msg`. */
export function logged(proc: MdwProcess, msg: RegExp): Record<string, unknown>[] {
  return proc.lines().filter((l) => typeof l.msg === 'string' && msg.test(l.msg));
}

/** waitSynced waits until the server at `baseUrl` reports itself synced at the node's top, `top()` (/middleware/status). */
export async function waitSynced(baseUrl: string, top: () => number, timeoutMs = 60_000): Promise<void> {
  await waitFor(
    "the server to report the node's top as synced",
    async () => {
      const res = await fetch(`${baseUrl}/middleware/status`).catch(() => undefined);
      const body = res?.ok ? ((await res.json()) as { height: number; synced: boolean }) : undefined;
      return body?.synced === true && body.height === top();
    },
    timeoutMs,
    200,
  );
}
