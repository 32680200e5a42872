/** @module A value read at most once per short period; callers within it share the reading. */

/**
 * BriefValue keeps what `read` returned for `ttlMs`; callers that come while a reading is under way
 * wait for that one. A rejected reading is not kept.
 */
export class BriefValue<T> {
  readonly #read: () => Promise<T>;
  readonly #ttlMs: number;
  readonly #now: () => number;
  #value: T | undefined;
  #readAt = -Infinity;
  #reading: Promise<T> | undefined;

  constructor(read: () => Promise<T>, ttlMs: number, now: () => number = Date.now) {
    this.#read = read;
    this.#ttlMs = ttlMs;
    this.#now = now;
  }

  get(): Promise<T> {
    if (this.#now() - this.#readAt < this.#ttlMs) return Promise.resolve(this.#value as T);
    this.#reading ??= this.#read()
      .then((value) => {
        this.#value = value;
        this.#readAt = this.#now();
        return value;
      })
      .finally(() => {
        this.#reading = undefined;
      });
    return this.#reading;
  }
}
