/**
 * @module What a node admits, and its pace when it refuses: a real node runs a few requests of each kind at once,
 * queues some more, and answers the rest at once `503 {"reason":"Temporary overload"}` (its `http_read` and
 * `http_update` regulators, docs/operations.md "Within the node's limits"). Pure apart from the clock the caller
 * passes.
 */
import { Backoff, waitBefore } from '../base/retry.ts';
import { DEFAULTS } from '../config/defaults.ts';
import type { Admitted } from '../config/middleware.ts';

/**
 * SlotKind: the node's two request queues: `read` (every GET, its `http_read`) and `dryRun` (the POSTs, dry-runs
 * among them, its `http_update`). Each has its own budget at each node, as each has its own queue there.
 */
export type SlotKind = 'read' | 'dryRun';

/**
 * NODE_ADMITS: a node's defaults (aeternity 7.2.2, `regulators` in its config schema): `http_read` runs 5 and
 * queues 100, `http_update` runs 5 and queues 50. NODE_MAX_READS and NODE_MAX_DRY_RUNS say otherwise for nodes
 * configured otherwise.
 */
export const NODE_ADMITS: Admitted = { read: DEFAULTS.NODE_MAX_READS, dryRun: DEFAULTS.NODE_MAX_DRY_RUNS };

/**
 * REFUSAL_BACKOFF: the pause after a refusal that asked for no wait (7.2.2 sends no Retry-After): 100 ms, doubling
 * with each refusal without a request admitted between, to the 3 s later nodes ask for themselves. A node's full
 * read queue drains in about 0.4 s (≈ 250 key blocks/s), so the first pauses are short; one that keeps refusing is
 * left longer.
 */
const REFUSAL_BACKOFF = { initialMs: 100, maxMs: 3000, jitter: 0.2 };

/** Pace is one node's pace for one kind of request: paused after a refusal, for as long as it asked or a backoff. */
export class Pace {
  readonly #backoff = new Backoff(REFUSAL_BACKOFF);
  #until = 0;

  /** until is when (the caller's clock, ms) the node may be asked again; in the past when it is not paused. */
  get until(): number {
    return this.#until;
  }

  /** pausedAt says whether the node is paused at `now`. */
  pausedAt(now: number): boolean {
    return now < this.#until;
  }

  /**
   * refused records a refusal at `now`: the node is paused for what it asked (`retryAfterMs`, its Retry-After) or
   * the backoff of the refusals in a row, whichever is longer; returns the pause in ms. A refusal of a request sent
   * before the pause began (a burst's) lengthens it only to what it asked.
   */
  refused(now: number, retryAfterMs?: number): number {
    if (this.pausedAt(now)) {
      this.#until = Math.max(this.#until, now + (retryAfterMs ?? 0));
      return this.#until - now;
    }
    const ms = waitBefore(this.#backoff.next(), retryAfterMs);
    this.#until = now + ms;
    return ms;
  }

  /**
   * admitted records a request the node took (it answered, not refusing): the next refusal's pause starts short
   * again. A node refusing a share of the requests (others fill its queue) is paused briefly each time, one refusing
   * them all ever longer.
   */
  admitted(): void {
    this.#backoff.reset();
  }
}

/** CountedSlots is a fixed budget of requests in flight (a node's dry-runs: their time says nothing of its queue). */
export class CountedSlots {
  readonly limit: number;
  #inFlight = 0;

  constructor(limit: number) {
    this.limit = limit;
  }

  get inFlight(): number {
    return this.#inFlight;
  }

  get free(): boolean {
    return this.#inFlight < this.limit;
  }

  started(): void {
    this.#inFlight++;
  }

  finished(): void {
    this.#inFlight--;
  }
}
