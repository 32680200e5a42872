/**
 * @module A long job's progress line: done of total, the rate and the time left, logged at most once per interval, so
 * an operator tailing the logs of a job of hours sees it move without a line per step.
 */
import type { Logger } from './log.ts';

/** What a progress line says besides its own fields: done of total, per second since the start, seconds left. */
export interface ProgressFields {
  readonly done: number;
  readonly total: number;
  readonly perSecond: number;
  /** null while nothing is done yet (no rate to divide by) */
  readonly secondsLeft: number | null;
}

/** progressFields computes a progress line's numbers from what is done after `elapsedMs`. Pure. */
export function progressFields(done: number, total: number, elapsedMs: number): ProgressFields {
  const perSecond = done / Math.max(elapsedMs / 1000, 1e-3);
  return {
    done,
    total,
    perSecond: Math.round(perSecond * 10) / 10,
    secondsLeft: done > 0 ? Math.round(Math.max(total - done, 0) / perSecond) : null,
  };
}

export interface ProgressOptions {
  readonly log: Logger;
  /** the line's message, e.g. `heights verified` */
  readonly message: string;
  /** undefined: not known beforehand (entries read page by page); the line then says done and the rate only */
  readonly total: number | undefined;
  /** at most one line per this many milliseconds (PROGRESS_LOG_MS); 0: a line at every step */
  readonly intervalMs: number;
  /** fields every line carries besides the counts (e.g. the part of a job) */
  readonly fields?: Readonly<Record<string, unknown>>;
  /** done before this run (a resumed job): counted in `done`, not in the rate */
  readonly doneBefore?: number;
  readonly now?: () => number;
}

/** ProgressLine counts a job's steps and logs its progress line when the interval has passed since the last one. */
export class ProgressLine {
  readonly #opts: ProgressOptions;
  readonly #now: () => number;
  readonly #started: number;
  #loggedAt: number;
  #done = 0;

  constructor(opts: ProgressOptions) {
    this.#opts = opts;
    this.#now = opts.now ?? Date.now;
    this.#started = this.#now();
    this.#loggedAt = this.#started;
  }

  /** advance counts `steps` more done and logs the line if the interval has passed. */
  advance(steps: number, fields: Readonly<Record<string, unknown>> = {}): void {
    this.#done += steps;
    const now = this.#now();
    if (now - this.#loggedAt < this.#opts.intervalMs) return;
    this.#loggedAt = now;
    const before = this.#opts.doneBefore ?? 0;
    const { total } = this.#opts;
    const counts = progressFields(this.#done, (total ?? this.#done) - before, now - this.#started);
    const known = total === undefined ? { perSecond: counts.perSecond } : { ...counts, total };
    this.#opts.log.info({ ...this.#opts.fields, ...fields, ...known, done: before + this.#done }, this.#opts.message);
  }
}
