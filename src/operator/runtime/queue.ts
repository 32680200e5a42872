/** @module A keyed work queue: deduplicated keys, one worker per key, per-key exponential backoff, a global token bucket. */
import { backoffDelay, sleep } from '../../base/retry.ts';

/** ProcessResult lets a worker ask for a later look at the same key (polling waits) without counting a failure. */
export type ProcessResult = { requeueAfterMs?: number } | undefined | void;

/** WorkQueueOptions configure the queue; defaults follow client-go (5 ms doubling to 1000 s, 10 qps, burst 100). */
export interface WorkQueueOptions {
  /** works on one key; `signal` aborts when the queue stops (a deposed leader's reconcile must write nothing more). */
  process: (key: string, signal: AbortSignal) => Promise<ProcessResult>;
  /** at most this many keys are processed at the same time (never the same key twice). */
  concurrency?: number;
  baseDelayMs?: number;
  maxDelayMs?: number;
  /** the token bucket: every start of a process call takes one token. */
  qps?: number;
  burst?: number;
  /** called when process throws, with the number of failures in a row and the backoff chosen. */
  onError?: (key: string, err: unknown, failures: number, delayMs: number) => void;
  /** observe depth changes, adds and retries (metrics). */
  onDepth?: (depth: number) => void;
  onAdd?: () => void;
  onRetry?: () => void;
  /** observe how long a key waited for a worker and how long its work took, in seconds (metrics). */
  onLatency?: (seconds: number) => void;
  onWorkDuration?: (seconds: number) => void;
  now?: () => number;
}

/**
 * WorkQueue merges duplicate keys; a key added while it is processed runs once more afterwards. Keys may be added
 * before start(); nothing is processed until then. stop() aborts the work in flight and waits for it.
 */
export class WorkQueue {
  readonly #opts: WorkQueueOptions;
  readonly #concurrency: number;
  readonly #backoff: { initialMs: number; maxMs: number };
  readonly #qps: number;
  readonly #burst: number;
  readonly #now: () => number;
  readonly #waiting: string[] = [];
  /** when each waiting key was first added (for the latency metric). */
  readonly #addedAt = new Map<string, number>();
  readonly #dirty = new Set<string>();
  readonly #processing = new Set<string>();
  readonly #delayed = new Map<string, { at: number; timer: NodeJS.Timeout }>();
  readonly #failureCounts = new Map<string, number>();
  readonly #running = new Set<Promise<void>>();
  readonly #abort = new AbortController();
  #idleWaiters: Array<() => void> = [];
  #tokens: number;
  #refilledAt: number;
  #pumpTimer: NodeJS.Timeout | undefined;
  #started = false;
  #closed = false;

  constructor(opts: WorkQueueOptions) {
    this.#opts = opts;
    this.#concurrency = opts.concurrency ?? 4;
    this.#backoff = { initialMs: opts.baseDelayMs ?? 5, maxMs: opts.maxDelayMs ?? 1_000_000 };
    this.#qps = opts.qps ?? 10;
    this.#burst = opts.burst ?? 100;
    this.#now = opts.now ?? Date.now;
    this.#tokens = this.#burst;
    this.#refilledAt = this.#now();
  }

  /** start begins handing keys to workers. */
  start(): void {
    if (this.#started || this.#closed) return;
    this.#started = true;
    this.#pump();
  }

  /** stop takes no more work, drops waiting keys and timers, aborts the work in flight and waits for it. */
  async stop(): Promise<void> {
    this.#closed = true;
    this.#abort.abort();
    for (const d of this.#delayed.values()) clearTimeout(d.timer);
    this.#delayed.clear();
    if (this.#pumpTimer !== undefined) clearTimeout(this.#pumpTimer);
    this.#pumpTimer = undefined;
    this.#waiting.length = 0;
    this.#addedAt.clear();
    this.#dirty.clear();
    this.#reportDepth();
    await Promise.allSettled([...this.#running]);
    this.#notifyIdle();
  }

  add(key: string): void {
    if (this.#closed || this.#dirty.has(key)) return;
    this.#dirty.add(key);
    this.#opts.onAdd?.();
    if (!this.#processing.has(key)) this.#enqueue(key);
    this.#pump();
  }

  addAfter(key: string, delayMs: number): void {
    if (this.#closed) return;
    if (delayMs <= 0) {
      this.add(key);
      return;
    }
    const at = this.#now() + delayMs;
    const existing = this.#delayed.get(key);
    if (existing !== undefined && existing.at <= at) return;
    if (existing !== undefined) clearTimeout(existing.timer);
    const timer = setTimeout(() => {
      this.#delayed.delete(key);
      this.add(key);
    }, delayMs);
    this.#delayed.set(key, { at, timer });
  }

  /** depth is the number of keys waiting for a worker. */
  get depth(): number {
    return this.#waiting.length;
  }

  /** failures is the current count of failures in a row of key (0 after a success). */
  failures(key: string): number {
    return this.#failureCounts.get(key) ?? 0;
  }

  /** idle resolves when nothing waits, runs, or is scheduled within the next `horizonMs` (tests). */
  async idle(horizonMs = 0): Promise<void> {
    for (;;) {
      if (this.#waiting.length === 0 && this.#processing.size === 0) {
        const soon = [...this.#delayed.values()].some((d) => d.at <= this.#now() + horizonMs);
        if (!soon) return;
        await sleep(5);
      } else {
        await new Promise<void>((resolve) => this.#idleWaiters.push(resolve));
      }
    }
  }

  #enqueue(key: string): void {
    this.#waiting.push(key);
    if (!this.#addedAt.has(key)) this.#addedAt.set(key, this.#now());
    this.#reportDepth();
  }

  #reportDepth(): void {
    this.#opts.onDepth?.(this.#waiting.length);
  }

  /** takeToken gives 0 when a token was taken, else the wait in ms until one is available. */
  #takeToken(): number {
    const t = this.#now();
    this.#tokens = Math.min(this.#burst, this.#tokens + ((t - this.#refilledAt) * this.#qps) / 1000);
    this.#refilledAt = t;
    if (this.#tokens >= 1) {
      this.#tokens -= 1;
      return 0;
    }
    return Math.ceil(((1 - this.#tokens) * 1000) / this.#qps);
  }

  #pump(): void {
    while (
      this.#started &&
      !this.#closed &&
      this.#processing.size < this.#concurrency &&
      this.#waiting.length > 0 &&
      this.#pumpTimer === undefined
    ) {
      const wait = this.#takeToken();
      if (wait > 0) {
        this.#pumpTimer = setTimeout(() => {
          this.#pumpTimer = undefined;
          this.#pump();
        }, wait);
        return;
      }
      const key = this.#waiting.shift() as string;
      this.#reportDepth();
      const addedAt = this.#addedAt.get(key);
      this.#addedAt.delete(key);
      if (addedAt !== undefined) this.#opts.onLatency?.((this.#now() - addedAt) / 1000);
      this.#dirty.delete(key);
      this.#processing.add(key);
      const work = this.#runOne(key);
      this.#running.add(work);
      void work.finally(() => this.#running.delete(work));
    }
    this.#notifyIdle();
  }

  async #runOne(key: string): Promise<void> {
    const startedAt = this.#now();
    try {
      const result = await this.#opts.process(key, this.#abort.signal);
      this.#failureCounts.delete(key);
      if (result && result.requeueAfterMs !== undefined) this.addAfter(key, result.requeueAfterMs);
    } catch (err) {
      const n = (this.#failureCounts.get(key) ?? 0) + 1;
      this.#failureCounts.set(key, n);
      const delayMs = backoffDelay(n, this.#backoff);
      this.#opts.onRetry?.();
      this.#opts.onError?.(key, err, n, delayMs);
      this.addAfter(key, delayMs);
    } finally {
      this.#opts.onWorkDuration?.((this.#now() - startedAt) / 1000);
      this.#processing.delete(key);
      if (this.#dirty.has(key) && !this.#closed) this.#enqueue(key);
      this.#pump();
    }
  }

  #notifyIdle(): void {
    if (this.#waiting.length > 0 || this.#processing.size > 0) return;
    const waiters = this.#idleWaiters;
    this.#idleWaiters = [];
    for (const w of waiters) w();
  }
}
