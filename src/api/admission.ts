/**
 * @module Admission of requests that read the database: at most so many run at once, the others wait in a bounded
 * line for a bounded time, and what does not fit is refused at once with 503 and Retry-After (MDW_OVERLOADED).
 */
import { AppError, ErrorCode } from '../errors.ts';
import { TurnQueue } from '../turns.ts';

export interface AdmissionOptions {
  /** requests that run at once */
  readonly concurrency: number;
  /** requests that may wait for a turn; one more is refused at once */
  readonly maxWaiting: number;
  /** how long a request may wait for its turn before it is refused */
  readonly maxWaitMs: number;
}

/**
 * admissionLimits sizes the line to the pool: as many requests run as there are connections (a request's queries
 * run in parallel and its rendering between them), a burst of thousands waits parked, and none waits longer than
 * 5 s, half the pool's connection timeout.
 */
export function admissionLimits(poolSize: number): AdmissionOptions {
  return { concurrency: poolSize, maxWaiting: 4096, maxWaitMs: 5000 };
}

/** overloaded is the refusal of a request the server has no room for: 503, Retry-After (the error boundary). */
export function overloaded(cause?: unknown): AppError {
  return new AppError(ErrorCode.OVERLOADED, 503, 'server busy: retry later', { cause });
}

/**
 * spreadWait is a waiter's deadline, somewhere in the last quarter of `maxWaitMs`: a burst parks together, and
 * with one deadline its refusals would fall due in the same timer turn, all answered in one stretch (and asked again
 * together by clients that retry at once, the next wave five seconds later).
 */
function spreadWait(maxWaitMs: number): number {
  return maxWaitMs * (0.75 + Math.random() * 0.25);
}

interface Waiter {
  readonly admit: () => void;
  readonly timer: NodeJS.Timeout;
}

/**
 * Admission runs requests under a concurrency limit. A burst waits parked (costing neither CPU nor connections of the
 * pool), so a cheap request that bypasses it (a probe, the status from memory) is answered at once; the line is
 * bounded in length and in time, well below the pool's connection timeout, so every request gets an answer, never a
 * 500 for a wait that timed out.
 */
export class Admission {
  readonly #options: AdmissionOptions;
  readonly #turns: TurnQueue;
  readonly #waiting: Waiter[] = [];
  #running = 0;
  #pressure = 0;

  /** `turns` are those its requests start in, shared with the server's pool (src/turns.ts) */
  constructor(options: AdmissionOptions, turns = new TurnQueue()) {
    this.#options = options;
    this.#turns = turns;
  }

  /**
   * counts are the requests running and waiting now (a metric reads them at scrape time), and the pressure: requests
   * so far that found every turn taken, parked or refused (it stops growing when a burst is over: HeapTrim).
   */
  get counts(): { running: number; waiting: number; pressure: number } {
    return { running: this.#running, waiting: this.#waiting.length, pressure: this.#pressure };
  }

  /** run calls `fn` in its turn; it rejects with `overloaded()` when the line is full or the wait too long. */
  async run<T>(fn: () => Promise<T>): Promise<T> {
    await this.#slot();
    try {
      // Each starts in a turn of its own (after the loop's poll for I/O): started in the task that let it in, a request
      // answered from memory would run in the same task as the one before it (let in when that one finished, or found
      // running below the limit by the next socket of the same poll), and a burst would render back to back for
      // seconds without the loop turning to a probe.
      await this.#turns.next();
      return await fn();
    } finally {
      this.#release();
    }
  }

  #slot(): Promise<void> {
    const { concurrency, maxWaiting, maxWaitMs } = this.#options;
    if (this.#running < concurrency) {
      this.#running++;
      return Promise.resolve();
    }
    this.#pressure++;
    if (this.#waiting.length >= maxWaiting) return Promise.reject(overloaded());
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        // the running count passes straight from the request that finished to this one
        admit: () => {
          clearTimeout(waiter.timer);
          resolve();
        },
        timer: setTimeout(() => {
          this.#waiting.splice(this.#waiting.indexOf(waiter), 1);
          reject(overloaded());
        }, spreadWait(maxWaitMs)),
      };
      this.#waiting.push(waiter);
    });
  }

  #release(): void {
    const next = this.#waiting.shift();
    if (next) next.admit();
    else this.#running--;
  }
}
