/**
 * @module How many requests to keep in flight at one node: as many as it serves at once, found from what the
 * client sees. A node with M slots and latency N answers M requests per N; asking more only makes them queue,
 * and queueing shows as a longer round trip. Every window of a round of answers and WINDOW_MS at least, the limit
 * is scaled by 1.25 × baseline ÷ the window's fastest round trip (the gradient, capped at 1) plus a small headroom,
 * damped: it grows while round trips stay near the baseline and settles somewhat above the node's slot count, so
 * the node's slots never wait for us. The fastest answer of a window, not its average: requests queued at the node
 * make every answer late, the fastest too, while the client's own stalls (a synchronous stretch of decoding, a
 * loaded machine) make late only the answers that arrive during them; read as queueing they shrank the limit below
 * the node's slots and left those idle. The baseline is the lowest lower quartile of a window seen (not one answer:
 * a single small, fast answer would make every later window look queued), until shrinking the limit brings no
 * relief: then the node itself got slower, and its answers now are the baseline. Pure apart from the clock the
 * caller passes.
 */

export interface AdaptiveLimitOptions {
  /**
   * limit before anything is observed (32: a node's slots are tens, and a limit above them only queues a few requests
   * at the node for the first window; from 8 the slow start left most of a 32-slot node idle for half a second)
   */
  readonly initial?: number;
  readonly min?: number;
  readonly max?: number;
  /** requests allowed to wait at the node beyond its slots, so that a freed slot is taken at once (at least √limit) */
  readonly headroom?: number;
}

/**
 * TOLERANCE: round trips up to this multiple of the baseline do not shrink the limit. A busy client's own event
 * loop (or a shared machine) stretches round trips too; only a clearly longer one means the node queues.
 */
const TOLERANCE = 1.25;

/**
 * WINDOW_MS: a window spans at least this long as well as a round of answers. Against a node that answers in a few
 * milliseconds a round is shorter than the client's own busy stretches (a batch's decoding, a collection), and a
 * round inside one has only late answers, its fastest too: read as queueing, such rounds held the limit at 10–16
 * of a 5 ms node's 32 slots.
 */
const WINDOW_MS = 100;

/**
 * STALE_AFTER, NO_RELIEF: when windows in a row have shrunk the limit to STALE_AFTER of what it was and their fastest
 * answer stayed within NO_RELIEF of what it was then, the lateness was not our requests queueing (ours would have
 * shrunk with them) but the node answering slower than the baseline seen: the baseline moves up to it. Without this
 * a baseline seen once, in a quiet moment, would hold the limit far below the node's slots for good.
 */
const STALE_AFTER = 0.6;
const NO_RELIEF = 0.9;

/**
 * REFUSED_SHARE, CEILING_RELAX_MS: after the node refused a request (its queue was full: other clients share it, or it
 * admits fewer than it was said to), the limit and a ceiling over it are cut to this share, as a congestion window
 * after a loss; the ceiling rises by one each CEILING_RELAX_MS without a refusal. Without the ceiling the windows
 * grew the limit past the node's admission again within a fifth of a second (a node that refuses queues nothing,
 * so the round trips stay at the baseline), and each refusal paused the node: 4.5 times as long a sync as within it.
 */
const REFUSED_SHARE = 0.7;
const CEILING_RELAX_MS = 5000;

/** lowerQuartile is the round trip a quarter of `values` are at or below (values not empty). Pure. */
export function lowerQuartile(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 4)]!;
}

/** AdaptiveLimit tracks one node's concurrency limit from the round trips of its answers. */
export class AdaptiveLimit {
  readonly #min: number;
  readonly #max: number;
  readonly #headroom: number;
  #limit: number;
  /** the limit's bound learned from refusals (node-set.ts refused), and when it last moved */
  #ceiling: number;
  #ceilingAt = 0;
  #baselineMs = Infinity;
  /** the round trips of the window so far, and when its first came */
  #window: number[] = [];
  #windowStart = 0;
  #windowPeak = 0;
  #inFlight = 0;
  /** until the first window that shows queueing the limit grows by half per window (a fresh start is quick) */
  #slowStart = true;
  /** while windows in a row shrink the limit: the limit and fastest answer of the latest that rose or brought relief */
  #shrinking: { readonly limit: number; readonly fastestMs: number } | undefined;

  constructor(opts: AdaptiveLimitOptions = {}) {
    this.#min = opts.min ?? 2;
    this.#max = opts.max ?? 256;
    this.#headroom = opts.headroom ?? 4;
    this.#limit = Math.min(this.#max, Math.max(this.#min, opts.initial ?? 32));
    this.#ceiling = this.#max;
  }

  /** limit is how many requests may be in flight now. */
  get limit(): number {
    return Math.floor(this.#limit);
  }

  get inFlight(): number {
    return this.#inFlight;
  }

  /** free says whether another request may start now. */
  get free(): boolean {
    return this.#inFlight < this.limit;
  }

  /** baselineMs is the round trip of an answer that did not queue, as far as seen (Infinity before any). */
  get baselineMs(): number {
    return this.#baselineMs;
  }

  /** started counts a request in flight. */
  started(): void {
    this.#inFlight++;
    this.#windowPeak = Math.max(this.#windowPeak, this.#inFlight);
  }

  /**
   * finished records a request's round trip (`ms`, undefined for a failure that says nothing of queueing), which
   * ended `at` (a millisecond clock).
   */
  finished(ms?: number, at = performance.now()): void {
    this.#inFlight--;
    if (ms === undefined) return;
    if (this.#window.push(ms) === 1) this.#windowStart = at;
    if (this.#window.length >= Math.max(8, this.limit) && at - this.#windowStart >= WINDOW_MS) this.#adjust(at);
  }

  /**
   * refused cuts the limit and its ceiling after the node refused a request for load (once per burst of refusals: the
   * caller's), `at` a millisecond clock.
   */
  refused(at = performance.now()): void {
    this.#slowStart = false;
    this.#shrinking = undefined;
    this.#ceiling = Math.max(this.#min, Math.min(this.#ceiling, this.#limit) * REFUSED_SHARE);
    this.#ceilingAt = at;
    this.#limit = Math.min(this.#limit, this.#ceiling);
  }

  #adjust(at: number): void {
    if (this.#ceiling < this.#max && at - this.#ceilingAt >= CEILING_RELAX_MS) {
      this.#ceiling = Math.min(this.#max, this.#ceiling + 1);
      this.#ceilingAt = at;
    }
    const fastest = Math.min(...this.#window);
    const quartile = lowerQuartile(this.#window);
    // a window the limit did not bound (the client asked less) says nothing about the node's capacity
    const bound = this.#windowPeak >= this.limit;
    this.#baselineMs = Math.min(this.#baselineMs, quartile);
    this.#window = [];
    this.#windowPeak = this.#inFlight;
    const gradient = Math.min(1, Math.max(0.5, (TOLERANCE * this.#baselineMs) / fastest));
    if (gradient >= 1) this.#shrinking = undefined;
    else {
      // measured from the run's latest window whose fastest answer moved by a tenth: the first windows' answers,
      // sent before the queue grew, come ever later, and a window that brought relief shows the queue was ours
      const from = this.#shrinking;
      if (!from || fastest * NO_RELIEF > from.fastestMs || fastest < NO_RELIEF * from.fastestMs) {
        this.#shrinking = { limit: this.#limit, fastestMs: fastest };
      } else if (this.#limit <= STALE_AFTER * from.limit) {
        // fewer requests, and the answers no sooner: they are not queued behind ours, the node itself got slower
        // (other clients, its own load, a jittery network): its answers now are the baseline
        this.#baselineMs = quartile;
        this.#shrinking = undefined;
        return;
      }
    }
    if (!bound && gradient >= 1) return;
    if (this.#slowStart && gradient >= 1) {
      this.#limit = Math.min(this.#ceiling, this.#limit * 1.5);
      return;
    }
    this.#slowStart = false;
    const target = this.#limit * gradient + Math.max(this.#headroom, Math.sqrt(this.#limit));
    this.#limit = Math.min(this.#ceiling, Math.max(this.#min, 0.7 * this.#limit + 0.3 * target));
  }
}
