/** @module A reading of a dependency for a status, answered within a moment whether the dependency answers or not. */
import { BriefValue } from './brief-value.ts';

/** What a PromptReading reads, how long a reading answers, how long a caller waits for one, and what it says meanwhile. */
export interface PromptReadingOptions<T> {
  readonly read: () => Promise<T>;
  /** a reading answers the callers of this long from its start (BriefValue: never older, issue 44) */
  readonly ttlMs: number;
  /** how long a caller waits for a reading under way, counted from the reading's start */
  readonly waitMs: number;
  /** the answer while the reading is late: what is known without it (a node not answering: unreachable) */
  readonly late: () => T;
  readonly now?: () => number;
}

/**
 * PromptReading is a BriefValue whose callers wait for a reading at most `waitMs` from the reading's start, then take
 * `late()` while the reading goes on behind: its answer, when it comes, is kept for the callers after (issue 79: a
 * status waited 2 s for a hung node, and a probe with Kubernetes' 1 s timeout failed). A caller coming when the
 * reading under way is already late answers at once.
 */
export class PromptReading<T> {
  readonly #value: BriefValue<T>;
  readonly #waitMs: number;
  readonly #late: () => T;
  readonly #now: () => number;

  constructor({ read, ttlMs, waitMs, late, now = Date.now }: PromptReadingOptions<T>) {
    this.#value = new BriefValue(read, ttlMs, now);
    this.#waitMs = waitMs;
    this.#late = late;
    this.#now = now;
  }

  get(): Promise<T> {
    const reading = this.#value.get();
    const since = this.#value.readingSince;
    if (since === undefined) return reading;
    const left = this.#waitMs - (this.#now() - since);
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => resolve(this.#late()), Math.max(0, left));
      reading.then(
        (value) => {
          clearTimeout(timer);
          resolve(value);
        },
        (err: unknown) => {
          clearTimeout(timer);
          reject(err as Error);
        },
      );
    });
  }
}
