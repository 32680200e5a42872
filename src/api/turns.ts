/**
 * @module Turns of the event loop, one stretch of work each. A request answered from memory, or the rendering of a
 * page its rows come back for, runs in one synchronous stretch of milliseconds; many of them ready in one turn of the
 * loop (a poll that finds a thousand sockets with a request each) run back to back, and a probe or the status from
 * memory waits for all of them. Taking turns, one stretch runs per turn of the loop, the others on the turns after,
 * each after the sockets ready by then were served.
 */

/** Turns gives the stretches that ask for one a turn of the event loop each, in order of asking. */
export class Turns {
  readonly #waiting: (() => void)[] = [];
  /** a stretch was given this turn: the turn ends when the loop reaches its immediates (after the poll for I/O) */
  #taken = false;

  /** next resolves at once when no stretch ran in this turn of the event loop yet, else on a later turn of its own. */
  next(): Promise<void> {
    if (this.#taken) return new Promise((resolve) => this.#waiting.push(resolve));
    this.#taken = true;
    setImmediate(this.#give);
    return Promise.resolve();
  }

  // one per immediate: the one given runs in the microtasks after this callback; one set now runs on the next turn
  readonly #give = (): void => {
    const next = this.#waiting.shift();
    if (next === undefined) {
      this.#taken = false;
      return;
    }
    next();
    setImmediate(this.#give);
  };
}
