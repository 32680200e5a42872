/**
 * @module The devnode's realistic HTTP layer (`--latency-ms`, `--max-concurrent-requests`): a node whose answer
 * takes the given latency (±20 % jitter) and that serves at most M requests at once, the rest waiting their turn in
 * arrival order, as a real node's `http_read` job queue makes them wait. The latency is the node's own time per
 * answer, from the request's admission to a slot until its answer is written, with the devnode's work inside it
 * (not added after): a slot is held for max(latency, work). The network between client and node is whatever the
 * machine's is (loopback here) and comes on top, as it does in front of a real node. So M slots at latency L serve
 * at most M ÷ L answers per second, and a client reaches that only by keeping requests waiting at the node.
 * Benchmarks against it measure how well a client keeps a slow, bounded node busy instead of how fast the devnode
 * answers; `stats` says how close the devnode itself came to that ideal.
 */
import pLimit from 'p-limit';

export interface PacingOptions {
  /** each answer takes this many milliseconds (±20 %) from its admission; 0 or absent: at once */
  readonly latencyMs?: number;
  /** requests served at once; more wait in a queue (absent: no limit) */
  readonly maxConcurrentRequests?: number;
  /** the jitter's source of randomness (tests pass a fixed one) */
  readonly random?: () => number;
}

/** JITTER is the spread of each answer's latency around the configured one: ±20 %. */
const JITTER = 0.2;

/** jitteredLatency draws one answer's latency: uniform over latencyMs × [0.8, 1.2]. Pure given `random`. */
export function jitteredLatency(latencyMs: number, random: () => number): number {
  return latencyMs * (1 - JITTER + 2 * JITTER * random());
}

/**
 * timerCorrection is the next correction (ms taken off each wait) after a timer fired `errorMs` after the time it
 * was meant for (negative: before): a little of each error is added, so the correction settles where timers fire on
 * time on average, whatever the event loop's granularity and delay. Kept within [0, maxMs]. Pure.
 */
export function timerCorrection(correctionMs: number, errorMs: number, maxMs: number): number {
  return Math.min(maxMs, Math.max(0, correctionMs + CORRECTION_GAIN * errorMs));
}

/** CORRECTION_GAIN: the share of each timer's error taken into the correction (a slow, steady average). */
const CORRECTION_GAIN = 0.05;

/** PacingStats are the counts since the devnode started, for a client to see how close it came to M ÷ L. */
export interface PacingStats {
  readonly latencyMs: number;
  /** null: no limit */
  readonly maxConcurrentRequests: number | null;
  /** answers written */
  readonly answers: number;
  /** the sum of their times from admission to written: the slot-milliseconds the answers held */
  readonly answerMs: number;
  /** the sum of their waits in the queue before admission */
  readonly queuedMs: number;
  /** answers whose own work took longer than their latency (the devnode's CPU, not the latency, set their time) */
  readonly overran: number;
}

/**
 * Pacer admits requests to the node's slots and writes each answer when its latency is up; it keeps the counts of
 * `stats`. One per listener (a node's listeners have their own pools).
 */
export class Pacer {
  readonly #latencyMs: number;
  readonly #slots: number | undefined;
  readonly #limit: pLimit.Limit | undefined;
  readonly #random: () => number;
  /** ms taken off each wait so that timers, which fire late on a busy event loop, fire on time on average */
  #correctionMs = 0;
  #answers = 0;
  #answerMs = 0;
  #queuedMs = 0;
  #overran = 0;

  constructor(opts: PacingOptions) {
    const slots = opts.maxConcurrentRequests;
    if (slots !== undefined && (!Number.isInteger(slots) || slots < 1)) {
      throw new RangeError(`maxConcurrentRequests must be a positive integer, not ${slots}`);
    }
    this.#latencyMs = Math.max(0, opts.latencyMs ?? 0);
    this.#slots = slots;
    this.#limit = slots === undefined ? undefined : pLimit(slots);
    this.#random = opts.random ?? Math.random;
  }

  /**
   * serve runs `work` (the answer's computation) once a slot is free, and `deliver`s its result when the answer's
   * latency, counted from admission, is up (at once if the work took longer); the slot is freed after delivery.
   */
  serve<T>(work: () => Promise<T>, deliver: (value: T) => void): Promise<void> {
    const arrived = performance.now();
    const run = async (): Promise<void> => {
      const admitted = performance.now();
      const due = this.#latencyMs > 0 ? admitted + jitteredLatency(this.#latencyMs, this.#random) : admitted;
      const value = await work();
      if (performance.now() < due) await this.#until(due);
      else if (this.#latencyMs > 0) this.#overran++;
      deliver(value);
      this.#answers++;
      this.#answerMs += performance.now() - admitted;
      this.#queuedMs += admitted - arrived;
    };
    return this.#limit ? this.#limit(run) : run();
  }

  /** stats are the counts so far (see PacingStats). */
  stats(): PacingStats {
    return {
      latencyMs: this.#latencyMs,
      maxConcurrentRequests: this.#slots ?? null,
      answers: this.#answers,
      answerMs: this.#answerMs,
      queuedMs: this.#queuedMs,
      overran: this.#overran,
    };
  }

  /** #until resolves at `due` (performance.now() time), as near as the event loop allows, on average exactly. */
  #until(due: number): Promise<void> {
    return new Promise((resolve) => {
      // whole milliseconds: Node keeps one timer list per duration, so a handful of lists serve every answer instead
      // of one new list per fractional wait; the rounding averages out, and the correction takes what does not
      const wait = Math.max(0, Math.round(due - performance.now() - this.#correctionMs));
      setTimeout(() => {
        this.#correctionMs = timerCorrection(this.#correctionMs, performance.now() - due, this.#latencyMs / 2);
        resolve();
      }, wait);
    });
  }
}

/**
 * pacing returns the pacer a listener puts its requests through, or undefined when the devnode answers at once
 * with no limit (the default, and what tests want).
 */
export function pacing(opts: PacingOptions): Pacer | undefined {
  if ((opts.latencyMs ?? 0) <= 0 && opts.maxConcurrentRequests === undefined) return undefined;
  return new Pacer(opts);
}
