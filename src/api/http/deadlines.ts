/**
 * @module The deadlines of the requests running, on one timer set for the earliest: a timer and an AbortController per
 * request, with a listener on its signal, cost a small request more than its routing (docs/benchmarks.md, "Small
 * requests against a commit").
 */

interface Watched {
  readonly at: number;
  readonly expire: () => void;
}

/** Deadlines calls each work's `expire` at its deadline, unless the work ended before. */
export class Deadlines {
  readonly #watched = new Set<Watched>();
  #timer: NodeJS.Timeout | undefined;
  /** the deadline the timer is set for (Infinity: none) */
  #timerAt = Infinity;

  /**
   * watch calls `expire` once `at` (performance.now()'s reading) has come, unless the returned `ended` is called first.
   * Deadlines come in about the order they are watched (each its request's arrival and the same allowance), so the timer
   * is set again only when one comes before every other.
   */
  watch(at: number, expire: () => void): () => void {
    const watched = { at, expire };
    this.#watched.add(watched);
    if (at < this.#timerAt) this.#setTimer(at);
    return () => this.#watched.delete(watched);
  }

  /** watching counts the works watched now. */
  get watching(): number {
    return this.#watched.size;
  }

  #setTimer(at: number): void {
    clearTimeout(this.#timer);
    this.#timerAt = at;
    // a work running holds the process by its own I/O; one that ended must not hold it until its deadline
    this.#timer = setTimeout(this.#due, Math.max(0, at - performance.now())).unref();
  }

  // Most works have ended long before the timer comes: it then finds the next deadline among those still running.
  readonly #due = (): void => {
    this.#timer = undefined;
    this.#timerAt = Infinity;
    const now = performance.now();
    let next = Infinity;
    for (const watched of this.#watched) {
      if (watched.at > now) {
        next = Math.min(next, watched.at);
        continue;
      }
      this.#watched.delete(watched);
      watched.expire();
    }
    if (next < Infinity) this.#setTimer(next);
  };
}
