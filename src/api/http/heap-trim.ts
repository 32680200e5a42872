/**
 * @module Gives the memory of a burst back to the system once the burst is over. V8 keeps the pages a collection frees
 * in a pool of its own, resident, and releases them only in a collection that reduces its footprint: the one its
 * memory reducer starts when the process allocates next to nothing. A server that keeps answering light traffic after
 * a burst never gets there, so the RSS the burst reached stayed for good (docs/benchmarks.md, "Overload"). HeapTrim
 * runs that collection itself when the RSS has grown well past what it was and the burst is over: for a whole period
 * no request waited for a turn and the event loop was mostly idle (bursts on the APIs without turns count too).
 */
import { performance } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { Logger } from '../../base/log.ts';

/** how often HeapTrim looks: a burst counts as over after one whole period without a request waiting, the loop idle */
export const HEAP_TRIM_EVERY_MS = 10_000;

/**
 * RSS growth past the last baseline that calls for a trim: well above what the caches and a busy minute's garbage
 * hold, so that a server at its steady size never pays for one (each pauses the event loop, about 0.1 s on a free
 * core, several times that on a loaded machine).
 */
export const HEAP_TRIM_SLACK_BYTES = 64 * 2 ** 20;

/**
 * The event loop's utilisation over a period (busy time ÷ time) under which the burst counts as over: light traffic
 * keeps it at a few per cent, a burst near 1.
 */
export const HEAP_TRIM_MAX_LOOP_UTILIZATION = 0.5;

/** What HeapTrim sees at each look. */
export interface HeapSample {
  /** the process's resident set, bytes */
  readonly rssBytes: number;
  /** requests so far that found every turn taken (parked or refused): growing while a burst lasts */
  readonly pressure: number;
  /** the event loop's utilisation since the previous sample, 0 to 1 */
  readonly loopUtilization: number;
}

/**
 * trimDue says whether to trim now: the RSS is more than `slackBytes` above the baseline (the RSS after the last trim,
 * or at start) and the burst is over: no request found every turn taken since the previous look and the loop was
 * mostly idle (trimming while it lasts would free pages it takes again at once, and pause a busy loop).
 */
export function trimDue(previous: HeapSample, now: HeapSample, baselineBytes: number, slackBytes: number): boolean {
  return (
    now.pressure === previous.pressure &&
    now.loopUtilization < HEAP_TRIM_MAX_LOOP_UTILIZATION &&
    now.rssBytes > baselineBytes + slackBytes
  );
}

/** processSampler samples this process: its RSS, the given pressure and its event loop's utilisation between calls. */
export function processSampler(pressure: () => number): () => HeapSample {
  let last = performance.eventLoopUtilization();
  return () => {
    const now = performance.eventLoopUtilization();
    const { utilization } = performance.eventLoopUtilization(now, last);
    last = now;
    return { rssBytes: process.memoryUsage.rss(), pressure: pressure(), loopUtilization: utilization };
  };
}

let collector: ((options: { type: 'major'; execution: 'sync'; flavor: 'last-resort' }) => void) | undefined;

/**
 * collectAllGarbage runs V8's footprint-reducing collection synchronously: full collections until nothing more is
 * freed, then the pooled pages released. V8 offers it to JavaScript only through its gc extension, which a context
 * created after the flag is set has (the main context keeps no global `gc`).
 */
export function collectAllGarbage(): void {
  if (!collector) {
    setFlagsFromString('--expose-gc');
    collector = runInNewContext('gc') as typeof collector;
  }
  collector!({ type: 'major', execution: 'sync', flavor: 'last-resort' });
}

export interface HeapTrimOptions {
  readonly sample: () => HeapSample;
  readonly log: Logger;
  readonly everyMs?: number;
  readonly slackBytes?: number;
  /** the collection that gives memory back (collectAllGarbage; a test passes its own) */
  readonly collect?: () => void;
}

/** HeapTrim looks every `everyMs` and trims when trimDue says so (the module comment). */
export class HeapTrim {
  readonly #options: HeapTrimOptions;
  #previous: HeapSample | undefined;
  #baselineBytes = 0;
  #timer: NodeJS.Timeout | undefined;
  #trims = 0;
  #pauseSeconds = 0;

  constructor(options: HeapTrimOptions) {
    this.#options = options;
  }

  start(): void {
    this.#previous = this.#options.sample();
    this.#baselineBytes = this.#previous.rssBytes;
    this.#timer = setInterval(() => this.look(), this.#options.everyMs ?? HEAP_TRIM_EVERY_MS);
    // a process with nothing else to do may exit: this timer keeps nothing alive
    this.#timer.unref();
  }

  stop(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
  }

  /** counts are the trims so far and the event loop's time they took (a metric reads them at scrape time). */
  get counts(): { trims: number; pauseSeconds: number } {
    return { trims: this.#trims, pauseSeconds: this.#pauseSeconds };
  }

  /** look is one check (the timer's; a test calls it itself): trims when due; true when it trimmed. */
  look(): boolean {
    const { sample, log, slackBytes = HEAP_TRIM_SLACK_BYTES, collect = collectAllGarbage } = this.#options;
    const now = sample();
    const previous = this.#previous ?? now;
    this.#previous = now;
    if (!trimDue(previous, now, this.#baselineBytes, slackBytes)) return false;
    const started = performance.now();
    collect();
    const ms = performance.now() - started;
    const after = sample();
    this.#previous = after;
    this.#baselineBytes = after.rssBytes;
    this.#trims++;
    this.#pauseSeconds += ms / 1000;
    log.info({ rssBefore: now.rssBytes, rssAfter: after.rssBytes, ms: Math.round(ms) }, 'burst over: heap trimmed');
    return true;
  }
}
