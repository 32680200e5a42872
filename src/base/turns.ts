/**
 * @module Turns of the event loop, handed out one at a time. Node reads every socket that is ready in one poll, and
 * each callback runs what its data resolves to the end: ten pages whose rows came in the same poll would render back
 * to back, and a probe read in that poll would wait for all ten. Work that waits for a turn here runs in the loop's
 * immediates instead, one stretch per turn, and the loop polls its sockets between any two: a request answered from
 * memory waits for one stretch at most, not for a burst's.
 */

/** TurnQueue hands out turns of the event loop, one per turn, in the order they were asked for. Pure scheduling. */
export class TurnQueue {
  readonly #waiting: (() => void)[] = [];
  #handing = false;

  /** next resolves in a later turn of the event loop, its own: after every turn asked for before it. */
  next(): Promise<void> {
    return new Promise((resolve) => {
      this.#waiting.push(resolve);
      if (this.#handing) return;
      this.#handing = true;
      setImmediate(this.#hand);
    });
  }

  /** waiting counts the turns asked for and not yet given. */
  get waiting(): number {
    return this.#waiting.length;
  }

  // An immediate set while the loop runs its immediates waits for the next turn (Node runs only those set before),
  // so each call of #hand is a turn of its own; what the resolved promise continues with runs before the next one.
  readonly #hand = (): void => {
    const resolve = this.#waiting.shift()!;
    if (this.#waiting.length > 0) setImmediate(this.#hand);
    else this.#handing = false;
    resolve();
  };
}
