/**
 * @module The stops of a lifecycle's started parts, in one list run last first: by a start that fails part way and by
 * stop() alike, so a composition root writes its stop order once, as its start order.
 */

/** StopList holds the stop of each part a lifecycle started, in the order they started. */
export class StopList {
  readonly #stops: (() => unknown)[] = [];

  /** push records the stop of a part just started (it runs before the stops of the parts started earlier). */
  push(stop: () => unknown): void {
    this.#stops.push(stop);
  }

  /**
   * starting runs a lifecycle's start; when it throws, the parts it had started are stopped, last first, and its
   * error is thrown (not a stop's: what made the start fail is what the caller must see).
   */
  async starting<T>(start: () => Promise<T>): Promise<T> {
    try {
      return await start();
    } catch (err) {
      await this.unwind().catch(() => undefined);
      throw err;
    }
  }

  /**
   * unwind stops every part started, last first, each once (a second unwind finds none); every stop runs even when
   * one fails, and the first failure is thrown once all have run.
   */
  async unwind(): Promise<void> {
    const failures: unknown[] = [];
    for (let stop = this.#stops.pop(); stop !== undefined; stop = this.#stops.pop()) {
      try {
        await stop();
      } catch (err) {
        failures.push(err);
      }
    }
    if (failures.length > 0) throw failures[0];
  }
}
