/**
 * @module Loaded into a populator child (`--import`): what it allocates over its load (from its `syncing` line to its
 * report, bench/load-window.lib.ts), by site, with V8's sampling heap profiler keeping the samples of objects already
 * collected (a transaction's garbage is what this measures, not what it keeps), and its garbage collections' count and
 * pause time. At exit it writes to BENCH_ALLOCATION_FILE `{"profile": the sampling profile, "gcs": n, "gcMs": ms, "majorGcs": n}`.
 * BENCH_ALLOCATION_SURVIVORS=1 drops the samples of objects a scavenge collected: what is left is what survived the
 * young generation (promoted, or still live at the end), the garbage that makes major collections.
 */
import { Session } from 'node:inspector';
import { writeFileSync } from 'node:fs';
import { constants, PerformanceObserver } from 'node:perf_hooks';
import { watchLoadWindow } from './load-window.lib.ts';

/** A sample every this many bytes allocated, on average (V8's default is 32 KiB: too few for a short run's sites). */
const SAMPLING_BYTES = 4096;

const session = new Session();
session.connect();
// the in-process session answers synchronously: the sampling starts and ends on the window's lines themselves
const post = (method: string, params: object = {}): unknown => {
  let answer: unknown;
  session.post(method, params, (err, result) => {
    if (err) throw err;
    answer = result;
  });
  return answer;
};

let profile: unknown;
let sampling = false;
let gcs = 0;
let gcMs = 0;
let majorGcs = 0;
new PerformanceObserver((list) => {
  if (!sampling) return;
  for (const entry of list.getEntries()) {
    gcs++;
    gcMs += entry.duration;
    const { detail } = entry as { detail?: { kind?: number } };
    if (detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR) majorGcs++;
  }
}).observe({ entryTypes: ['gc'] });

const window = watchLoadWindow();
const write = process.stdout.write.bind(process.stdout) as (chunk: unknown, ...rest: unknown[]) => boolean;
process.stdout.write = ((chunk: unknown, ...rest: unknown[]) => {
  const written = write(chunk, ...rest);
  if (window.from !== undefined && !sampling && profile === undefined) {
    post('HeapProfiler.startSampling', {
      samplingInterval: SAMPLING_BYTES,
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: process.env.BENCH_ALLOCATION_SURVIVORS !== '1',
    });
    sampling = true;
  } else if (window.to !== undefined && sampling) {
    profile = (post('HeapProfiler.stopSampling') as { profile: unknown }).profile;
    sampling = false;
  }
  return written;
}) as typeof process.stdout.write;

process.on('exit', () => {
  if (profile === undefined || process.env.BENCH_ALLOCATION_FILE === undefined) return;
  writeFileSync(process.env.BENCH_ALLOCATION_FILE, JSON.stringify({ profile, gcs, gcMs, majorGcs }));
});
