/**
 * @module Turns of the event loop, one stretch of work each. A request answered from memory, or the rendering of a
 * page its rows come back for, runs in one synchronous stretch of milliseconds; many of them ready in one turn of the
 * loop (a poll that finds a thousand sockets with a request each) run back to back, and a probe or the status from
 * memory waits for all of them. Taking turns, each stretch starts on a turn of its own, after the sockets ready by
 * then were served.
 */

/** Turns gives the stretches that ask for one a turn of the event loop each, in order of asking. */
export class Turns {
  readonly #waiting: (() => void)[] = [];
  #scheduled = false;

  /** next resolves on a turn of the event loop of its own (setImmediate: after the poll for I/O). */
  next(): Promise<void> {
    return new Promise((resolve) => {
      this.#waiting.push(resolve);
      if (!this.#scheduled) {
        this.#scheduled = true;
        setImmediate(this.#give);
      }
    });
  }

  // one per immediate: the one given runs in the microtasks after this callback; one set now runs on the next turn
  readonly #give = (): void => {
    this.#waiting.shift()!();
    if (this.#waiting.length > 0) setImmediate(this.#give);
    else this.#scheduled = false;
  };
}
