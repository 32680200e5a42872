/** @module A keyed work queue: deduplicated keys, one worker per key, per-key exponential backoff, a global token bucket. */

/** ProcessResult lets a worker ask for a later look at the same key (polling waits) without counting a failure. */
export type ProcessResult = { requeueAfterMs?: number } | undefined | void;

/** WorkQueueOptions configure the queue; defaults follow client-go (5 ms doubling to 1000 s, 10 qps, burst 100). */
export interface WorkQueueOptions {
  process: (key: string) => Promise<ProcessResult>;
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
  now?: () => number;
}

/** WorkQueue merges duplicate keys; a key added while it is processed runs once more afterwards. */
export interface WorkQueue {
  add(key: string): void;
  addAfter(key: string, delayMs: number): void;
  /** depth is the number of keys waiting for a worker. */
  readonly depth: number;
  /** failures is the current count of failures in a row of key (0 after a success). */
  failures(key: string): number;
  /** idle resolves when nothing waits, runs, or is scheduled within the next `horizonMs` (tests). */
  idle(horizonMs?: number): Promise<void>;
  /** shutdown stops taking work, drops waiting keys and timers, and waits for running workers. */
  shutdown(): Promise<void>;
}

/** createWorkQueue makes a queue that starts working as soon as keys are added. */
export function createWorkQueue(opts: WorkQueueOptions): WorkQueue {
  const concurrency = opts.concurrency ?? 4;
  const baseDelayMs = opts.baseDelayMs ?? 5;
  const maxDelayMs = opts.maxDelayMs ?? 1_000_000;
  const qps = opts.qps ?? 10;
  const burst = opts.burst ?? 100;
  const now = opts.now ?? Date.now;

  const waiting: string[] = [];
  const dirty = new Set<string>();
  const processing = new Set<string>();
  const delayed = new Map<string, { at: number; timer: NodeJS.Timeout }>();
  const failureCounts = new Map<string, number>();
  const running = new Set<Promise<void>>();
  let idleWaiters: Array<() => void> = [];
  let tokens = burst;
  let refilledAt = now();
  let pumpTimer: NodeJS.Timeout | undefined;
  let closed = false;

  const reportDepth = (): void => opts.onDepth?.(waiting.length);

  function add(key: string): void {
    if (closed || dirty.has(key)) return;
    dirty.add(key);
    opts.onAdd?.();
    if (!processing.has(key)) {
      waiting.push(key);
      reportDepth();
    }
    pump();
  }

  function addAfter(key: string, delayMs: number): void {
    if (closed) return;
    if (delayMs <= 0) {
      add(key);
      return;
    }
    const at = now() + delayMs;
    const existing = delayed.get(key);
    if (existing !== undefined && existing.at <= at) return;
    if (existing !== undefined) clearTimeout(existing.timer);
    const timer = setTimeout(() => {
      delayed.delete(key);
      add(key);
    }, delayMs);
    delayed.set(key, { at, timer });
  }

  /** takeToken gives 0 when a token was taken, else the wait in ms until one is available. */
  function takeToken(): number {
    const t = now();
    tokens = Math.min(burst, tokens + ((t - refilledAt) * qps) / 1000);
    refilledAt = t;
    if (tokens >= 1) {
      tokens -= 1;
      return 0;
    }
    return Math.ceil(((1 - tokens) * 1000) / qps);
  }

  function pump(): void {
    while (!closed && processing.size < concurrency && waiting.length > 0 && pumpTimer === undefined) {
      const wait = takeToken();
      if (wait > 0) {
        pumpTimer = setTimeout(() => {
          pumpTimer = undefined;
          pump();
        }, wait);
        return;
      }
      const key = waiting.shift() as string;
      reportDepth();
      dirty.delete(key);
      processing.add(key);
      const work = runOne(key);
      running.add(work);
      void work.finally(() => running.delete(work));
    }
    notifyIdle();
  }

  async function runOne(key: string): Promise<void> {
    try {
      const result = await opts.process(key);
      failureCounts.delete(key);
      if (result && result.requeueAfterMs !== undefined) addAfter(key, result.requeueAfterMs);
    } catch (err) {
      const n = (failureCounts.get(key) ?? 0) + 1;
      failureCounts.set(key, n);
      const delayMs = Math.min(maxDelayMs, baseDelayMs * 2 ** (n - 1));
      opts.onRetry?.();
      opts.onError?.(key, err, n, delayMs);
      addAfter(key, delayMs);
    } finally {
      processing.delete(key);
      if (dirty.has(key) && !closed) {
        waiting.push(key);
        reportDepth();
      }
      pump();
    }
  }

  function notifyIdle(): void {
    if (waiting.length > 0 || processing.size > 0) return;
    const waiters = idleWaiters;
    idleWaiters = [];
    for (const w of waiters) w();
  }

  return {
    add,
    addAfter,
    get depth() {
      return waiting.length;
    },
    failures: (key) => failureCounts.get(key) ?? 0,
    async idle(horizonMs = 0) {
      for (;;) {
        if (waiting.length === 0 && processing.size === 0) {
          const soon = [...delayed.values()].some((d) => d.at <= now() + horizonMs);
          if (!soon) return;
          await new Promise((r) => setTimeout(r, 5));
        } else {
          await new Promise<void>((resolve) => idleWaiters.push(resolve));
        }
      }
    },
    async shutdown() {
      closed = true;
      for (const d of delayed.values()) clearTimeout(d.timer);
      delayed.clear();
      if (pumpTimer !== undefined) clearTimeout(pumpTimer);
      pumpTimer = undefined;
      waiting.length = 0;
      dirty.clear();
      reportDepth();
      await Promise.allSettled([...running]);
      notifyIdle();
    },
  };
}
