/**
 * @module Admission of requests that read the database: at most so much work runs at once (a request weighs one turn,
 * a GraphQL operation as many as its cost), the others wait in a bounded line for a bounded time, and what does not
 * fit is refused at once with 503 and Retry-After (MDW_OVERLOADED). A request let in is answered by its deadline: at
 * the deadline it is refused with the same 503, its statement in flight cancelled, and its work may check the deadline
 * (GraphQL's fields do, before each read) to give up where it is.
 */
import { cancelledWith, Work } from '../../db/connection/statement-cancel.ts';
import { AppError, ErrorCode } from '../../base/errors.ts';
import { TurnQueue } from '../../base/turns.ts';
import { Deadlines } from './deadlines.ts';

export interface AdmissionOptions {
  /** turns: requests of weight 1 that run at once */
  readonly concurrency: number;
  /** requests that may wait for a turn; one more is refused at once */
  readonly maxWaiting: number;
  /** how long a request may wait for its turn before it is refused */
  readonly maxWaitMs: number;
  /** how long after its arrival a request's work may go on (Deadline) */
  readonly deadlineMs: number;
}

/** ANSWER_BOUND_MS: every request that waits for a turn is answered within this of its arrival, a 200 or a 503. */
export const ANSWER_BOUND_MS = 5000;

/**
 * ANSWER_MARGIN_MS: the wait and the deadline end this long before the bound, the time a refusal has to be written.
 * They are timers: one fires when the event loop comes to it, after the stretch it is in (a page rendered, a poll of a
 * burst's sockets), and the refusals due in one stretch are written one after another: with the deadline at the
 * bound itself, every request cut by it was answered past the bound (issue 59).
 */
const ANSWER_MARGIN_MS = 250;

/**
 * admissionLimits sizes the line to the pool: as many requests run as there are connections (a request's queries
 * run in parallel and its rendering between them), a burst of thousands waits parked, and each is answered within
 * ANSWER_BOUND_MS (half the pool's connection timeout): its wait and its work end ANSWER_MARGIN_MS before it.
 */
export function admissionLimits(poolSize: number): AdmissionOptions {
  const endMs = ANSWER_BOUND_MS - ANSWER_MARGIN_MS;
  return { concurrency: poolSize, maxWaiting: 4096, maxWaitMs: endMs, deadlineMs: endMs };
}

/** Deadline is the moment a request's work is given up: check() throws `overloaded()` once it has come. */
export class Deadline {
  readonly #at: number;

  /** `at`: performance.now()'s reading the work must end by */
  constructor(at: number) {
    this.#at = at;
  }

  /** check throws the request's refusal (503, Retry-After) once its deadline has come; work calls it between reads. */
  check(): void {
    if (performance.now() >= this.#at) throw overloaded();
  }
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
  readonly weight: number;
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
  readonly #deadlines = new Deadlines();
  /** the requests running, and the turns they hold (their weights) */
  #running = 0;
  #held = 0;
  #pressure = 0;

  /** `turns` are those its requests start in, shared with the server's pool (src/base/turns.ts) */
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

  /**
   * run calls `fn` once `weight` turns are free (at most `concurrency`: a request heavier than the whole server runs
   * alone), with the request's deadline; it rejects with `overloaded()` when the line is full or the wait too long.
   * The line is first come, first served: a heavy request is not passed by lighter ones for ever. The wait and the
   * deadline count from `arrivedAt` (performance.now()'s reading), when the request did work before it asked.
   *
   * At the deadline run rejects with `overloaded()` whether `fn` has ended or not, and the statement `fn` has in flight
   * is cancelled (statement-cancel.ts): the answer is the refusal, whatever `fn` does after is never answered. Its
   * turns stay held until `fn` has ended, so work given up is counted until it has stopped. `statements` is the Work
   * `fn`'s statements run as: a work of the caller's when it must cancel them itself too (an export whose client left).
   */
  async run<T>(
    fn: (deadline: Deadline) => Promise<T>,
    weight = 1,
    arrivedAt = performance.now(),
    statements = new Work(),
  ): Promise<T> {
    const turns = Math.min(Math.max(1, Math.ceil(weight)), this.#options.concurrency);
    await this.#slot(turns, arrivedAt);
    const at = arrivedAt + this.#options.deadlineMs;
    // watched from the moment it is let in, its wait for a turn of the event loop included: a starved loop hands out
    // turns late, and a request let in near its deadline was refused when its turn came, seconds after (issue 59)
    return this.#byDeadline(this.#started(fn, at, statements), at, statements, turns);
  }

  /**
   * started calls `fn` in a turn of its own, unless the deadline `at` came first. Started in the task that let it in,
   * a request answered from memory would run in the same task as the one before it (let in when that one finished, or
   * found running below the limit by the next socket of the same poll), and a burst would render back to back for
   * seconds without the loop turning to a probe.
   */
  async #started<T>(fn: (deadline: Deadline) => Promise<T>, at: number, statements: Work): Promise<T> {
    await this.#turns.next();
    // a turn that came after the deadline starts nothing (its refusal went out at the deadline)
    if (performance.now() >= at) throw overloaded();
    return cancelledWith(statements, () => fn(new Deadline(at)));
  }

  /**
   * byDeadline settles as `work` does, or with `overloaded()` at `at`, its statements cancelled, whichever is first.
   * Work given up at its deadline still holds its turns until it has stopped (its rejection is handled here).
   */
  #byDeadline<T>(work: Promise<T>, at: number, statements: Work, turns: number): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const unwatch = this.#deadlines.watch(at, () => {
        statements.cancel();
        reject(overloaded());
      });
      const ended = (): void => {
        unwatch();
        this.#release(turns);
      };
      work.then(
        (value) => {
          ended();
          resolve(value);
        },
        (err: unknown) => {
          ended();
          reject(err);
        },
      );
    });
  }

  #slot(weight: number, arrivedAt: number): Promise<void> {
    const { maxWaiting, maxWaitMs } = this.#options;
    if (this.#waiting.length === 0 && this.#fits(weight)) {
      this.#hold(weight);
      return Promise.resolve();
    }
    this.#pressure++;
    if (this.#waiting.length >= maxWaiting) return Promise.reject(overloaded());
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        weight,
        admit: () => {
          clearTimeout(waiter.timer);
          resolve();
        },
        timer: setTimeout(
          () => {
            this.#waiting.splice(this.#waiting.indexOf(waiter), 1);
            reject(overloaded());
            // a heavy request at the head that gave up may have held lighter ones back
            this.#admitWaiting();
          },
          Math.max(0, arrivedAt + spreadWait(maxWaitMs) - performance.now()),
        ),
      };
      this.#waiting.push(waiter);
    });
  }

  #fits(weight: number): boolean {
    return this.#held + weight <= this.#options.concurrency;
  }

  #hold(weight: number): void {
    this.#running++;
    this.#held += weight;
  }

  #release(weight: number): void {
    this.#running--;
    this.#held -= weight;
    this.#admitWaiting();
  }

  /** admitWaiting lets in the waiters at the head of the line, in order, while their turns are free. */
  #admitWaiting(): void {
    while (this.#waiting.length > 0 && this.#fits(this.#waiting[0]!.weight)) {
      const next = this.#waiting.shift()!;
      this.#hold(next.weight);
      next.admit();
    }
  }
}
