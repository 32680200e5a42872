/**
 * @module Loaded into a populator of bench/populator-ab.ts (`--import`, BENCH_AB_TIMELINE=1): where in its load the
 * node's slots idle. Each request to the node counts from its headers sent to its answer's headers (undici's
 * diagnostics channels); the load runs from the child's `syncing` line to its report (bench/indexer.lib.populate.ts,
 * of either checkout). At exit it writes to BENCH_NODE_SLOTS_FILE the share of the slots (BENCH_NODE_SLOTS, of all
 * nodes) that had no request, in each tenth of the load: `{"idleByTenth": [...], "idle": 0.03}`.
 */
import { subscribe } from 'node:diagnostics_channel';
import { writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { watchLoadWindow } from './load-window.lib.ts';

const TENTHS = 10;
const slots = Number(process.env.BENCH_NODE_SLOTS);
const sentAt = new WeakMap<object, number>();
const requests: [number, number][] = [];
// the child says where its load starts and ends on its standard output
const load = watchLoadWindow();

subscribe('undici:client:sendHeaders', (message) => {
  sentAt.set((message as { request: object }).request, performance.now());
});
const answered = (message: unknown): void => {
  const { request } = message as { request: object };
  const at = sentAt.get(request);
  if (at === undefined) return;
  sentAt.delete(request);
  requests.push([at, performance.now()]);
};
subscribe('undici:request:headers', answered);
subscribe('undici:request:error', answered);

process.on('exit', () => {
  if (load.from === undefined || load.to === undefined) return;
  writeFileSync(process.env.BENCH_NODE_SLOTS_FILE!, JSON.stringify(idleShares(load.from, load.to)));
});

/** idleShares sums, per tenth of [from, to], the slots without a request over time, as a share of all of them. */
function idleShares(from: number, to: number): { idleByTenth: number[]; idle: number } {
  // requests out, stepping at each send and answer
  const steps = requests
    .filter(([, end]) => end > from)
    .flatMap(([start, end]): [number, number][] => [
      [Math.max(start, from), 1],
      [Math.min(end, to), -1],
    ])
    .sort((a, b) => a[0] - b[0]);
  const tenth = (to - from) / TENTHS;
  const idle = new Array<number>(TENTHS).fill(0);
  const addIdle = (start: number, end: number, out: number): void => {
    const free = Math.max(0, slots - out);
    for (let i = 0; i < TENTHS && free > 0; i++) {
      const overlap = Math.min(end, from + tenth * (i + 1)) - Math.max(start, from + tenth * i);
      if (overlap > 0) idle[i]! += free * overlap;
    }
  };
  let out = 0;
  let at = from;
  for (const [time, step] of steps) {
    addIdle(at, time, out);
    out += step;
    at = time;
  }
  addIdle(at, to, out);
  return {
    idleByTenth: idle.map((t) => t / (slots * tenth)),
    idle: idle.reduce((a, b) => a + b, 0) / (slots * (to - from)),
  };
}
