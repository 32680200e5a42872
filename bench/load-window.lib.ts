/**
 * @module Where a benchmark child's load runs, for a hook loaded into it (`--import`): from its `syncing` line to its
 * report's `{"seconds"` line on standard output (bench/indexer.lib.populate.ts, of either checkout; not any `{`: the
 * populator's own log lines, a warning of 0.2.0's among them, are JSON on the same output).
 */
import { performance } from 'node:perf_hooks';

/** LoadWindow is the load's start and end (performance.now()), each undefined until its line was written. */
export interface LoadWindow {
  from: number | undefined;
  to: number | undefined;
}

/** watchLoadWindow has the child's standard output mark the load's start and end in the window it returns. */
export function watchLoadWindow(): LoadWindow {
  const window: LoadWindow = { from: undefined, to: undefined };
  const write = process.stdout.write.bind(process.stdout) as (chunk: unknown, ...rest: unknown[]) => boolean;
  process.stdout.write = ((chunk: unknown, ...rest: unknown[]) => {
    const text = String(chunk);
    if (text.startsWith('syncing')) window.from = performance.now();
    else if (text.startsWith('{"seconds"')) window.to = performance.now();
    return write(chunk, ...rest);
  }) as typeof process.stdout.write;
  return window;
}
