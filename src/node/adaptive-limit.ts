/**
 * @module How many requests to keep in flight at one node: as many as it serves at once, found from what the
 * client sees. A node with M slots and latency N answers M requests per N; asking more only makes them queue,
 * and queueing shows as a longer round trip. Every window of about one round of answers the limit is scaled by
 * baseline ÷ average round trip (the gradient, 1 when nothing queues) plus a small headroom, damped: it grows
 * while round trips stay at the baseline and settles a few requests above the node's slot count, so the node's
 * slots never wait for us. The baseline is the lowest window average seen (averages, so the node's jitter does
 * not read as queueing). Pure apart from the clock the caller passes.
 */

export interface AdaptiveLimitOptions {
  /** limit before anything is observed */
  readonly initial?: number;
  readonly min?: number;
  readonly max?: number;
  /** requests allowed to wait at the node beyond its slots, so that a freed slot is taken at once (at least √limit) */
  readonly headroom?: number;
}

/** AdaptiveLimit tracks one node's concurrency limit from the round trips of its answers. */
export class AdaptiveLimit {
  readonly #min: number;
  readonly #max: number;
  readonly #headroom: number;
  #limit: number;
  #baselineMs = Infinity;
  #windowSum = 0;
  #windowCount = 0;
  #windowPeak = 0;
  #inFlight = 0;

  constructor(opts: AdaptiveLimitOptions = {}) {
    this.#min = opts.min ?? 2;
    this.#max = opts.max ?? 256;
    this.#headroom = opts.headroom ?? 4;
    this.#limit = Math.min(this.#max, Math.max(this.#min, opts.initial ?? 8));
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

  /** finished records a request's round trip (`ms`, undefined for a failure that says nothing of queueing). */
  finished(ms?: number): void {
    this.#inFlight--;
    if (ms === undefined) return;
    this.#windowSum += ms;
    this.#windowCount++;
    if (this.#windowCount >= Math.max(8, this.limit)) this.#adjust();
  }

  #adjust(): void {
    const average = this.#windowSum / this.#windowCount;
    // a window the limit did not bound (the client asked less) says nothing about the node's capacity
    const bound = this.#windowPeak >= this.limit;
    this.#windowSum = 0;
    this.#windowCount = 0;
    this.#windowPeak = this.#inFlight;
    this.#baselineMs = Math.min(this.#baselineMs, average);
    const gradient = Math.min(1, Math.max(0.5, this.#baselineMs / average));
    if (!bound && gradient >= 1) return;
    const target = this.#limit * gradient + Math.max(this.#headroom, Math.sqrt(this.#limit));
    this.#limit = Math.min(this.#max, Math.max(this.#min, 0.7 * this.#limit + 0.3 * target));
  }
}
