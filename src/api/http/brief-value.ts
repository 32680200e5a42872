/** @module A value read at most once per short period; callers within it share the reading. */

/**
 * BriefValue keeps what `read` returned for `ttlMs` from the moment that reading started, so no caller is answered a
 * value older than `ttlMs` (issue 44): a caller finding it older waits for a new reading, and callers that come while
 * one is under way wait for that one. A rejected reading is not kept.
 */
export class BriefValue<T> {
  readonly #read: () => Promise<T>;
  readonly #ttlMs: number;
  readonly #now: () => number;
  #value: T | undefined;
  #readAt = -Infinity;
  #reading: Promise<T> | undefined;
  #readingSince: number | undefined;

  constructor(read: () => Promise<T>, ttlMs: number, now: () => number = Date.now) {
    this.#read = read;
    this.#ttlMs = ttlMs;
    this.#now = now;
  }

  /** readingSince is when the reading under way started (undefined when none is). */
  get readingSince(): number | undefined {
    return this.#reading === undefined ? undefined : this.#readingSince;
  }

  get(): Promise<T> {
    if (this.#now() - this.#readAt < this.#ttlMs) return Promise.resolve(this.#value as T);
    const startedAt = this.#now();
    if (this.#reading === undefined) this.#readingSince = startedAt;
    this.#reading ??= this.#read()
      .then((value) => {
        this.#value = value;
        this.#readAt = startedAt;
        return value;
      })
      .finally(() => {
        this.#reading = undefined;
      });
    return this.#reading;
  }
}
