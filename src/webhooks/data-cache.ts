/**
 * @module The deliveries' data shared while it is fresh: one event matched by many hooks (forty hooks on an account
 * that a spend names) is read and rendered once, not once a hook, while the others' attempts wait on that one read.
 * An entry is kept a few seconds only: a fork takes a row with its block, and its key names the block.
 */
import type { QueuedDelivery } from '../db/writes/webhook-queue.ts';

/** DataCache keeps the promised data of the deliveries read in the last `ttlMs`, at most `max` of them. */
export class DataCache {
  readonly #ttlMs: number;
  readonly #max: number;
  readonly #entries = new Map<string, { at: number; data: Promise<string | undefined> }>();

  constructor(ttlMs: number, max: number) {
    this.#ttlMs = ttlMs;
    this.#max = max;
  }

  /** get is `d`'s data from the cache, else from `read` (a failed read is not kept). */
  get(d: QueuedDelivery, read: () => Promise<string | undefined>, now = Date.now()): Promise<string | undefined> {
    const key = `${d.type}/${d.blockHash}/${d.txHash}/${d.logIdx}`;
    const hit = this.#entries.get(key);
    if (hit !== undefined && now - hit.at < this.#ttlMs) return hit.data;
    const data = read();
    data.catch(() => {
      if (this.#entries.get(key)?.data === data) this.#entries.delete(key);
    });
    this.#entries.delete(key);
    this.#entries.set(key, { at: now, data });
    // the oldest go first (a Map iterates in insertion order)
    for (const old of this.#entries.keys()) {
      if (this.#entries.size <= this.#max) break;
      this.#entries.delete(old);
    }
    return data;
  }
}
