/**
 * @module The devnode's realistic HTTP layer (`--latency-ms`, `--max-concurrent-requests`): each request is answered
 * after its latency (±20 % jitter), and at most M requests are served at once while the rest wait their turn in
 * arrival order, as a real node's acceptor pool makes them wait. Benchmarks against it measure how well a client
 * keeps a slow, bounded node busy instead of how fast the devnode answers.
 */
import pLimit from 'p-limit';
import { sleep } from '../retry.ts';

export interface PacingOptions {
  /** each request is answered after this many milliseconds (±20 %); 0 or absent: at once */
  readonly latencyMs?: number;
  /** requests served at once; more wait in a queue (absent: no limit) */
  readonly maxConcurrentRequests?: number;
  /** the jitter's source of randomness (tests pass a fixed one) */
  readonly random?: () => number;
}

/** JITTER is the spread of each request's latency around the configured one: ±20 %. */
const JITTER = 0.2;

/** jitteredLatency draws one request's latency: uniform over latencyMs × [0.8, 1.2]. Pure given `random`. */
export function jitteredLatency(latencyMs: number, random: () => number): number {
  return latencyMs * (1 - JITTER + 2 * JITTER * random());
}

/** Admission runs one request's work when the node would: after its turn in the queue and its latency. */
export type Admission = <T>(work: () => Promise<T>) => Promise<T>;

/**
 * pacing returns the admission both listeners put their requests through (each listener gets its own pool),
 * or undefined when the devnode answers at once with no limit (the default, and what tests want).
 */
export function pacing(opts: PacingOptions): Admission | undefined {
  const latencyMs = opts.latencyMs ?? 0;
  const slots = opts.maxConcurrentRequests;
  if (latencyMs <= 0 && slots === undefined) return undefined;
  if (slots !== undefined && (!Number.isInteger(slots) || slots < 1)) {
    throw new RangeError(`maxConcurrentRequests must be a positive integer, not ${slots}`);
  }
  const random = opts.random ?? Math.random;
  const delayed = async <T>(work: () => Promise<T>): Promise<T> => {
    // the slot is held while the request "takes" its latency: a busy node serves M requests per latency
    if (latencyMs > 0) await sleep(jitteredLatency(latencyMs, random));
    return work();
  };
  if (slots === undefined) return delayed;
  const limit = pLimit(slots);
  return (work) => limit(() => delayed(work));
}
