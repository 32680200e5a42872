/**
 * @module One of a node's request regulators (the `regulators` of its config, jobs queues that aehttp's dispatch runs
 * each operation through, aec_jobs_queues:run): a counter of `workers` requests running at once and a queue of at
 * most `waiting` more, in arrival order; a request that finds both full is rejected at once, which the node answers
 * 503 `Temporary overload`. No clock: the caller says when a request is done.
 */

/** QueueLimits are a regulator's sizes: its config's `counter` (running at once) and `max_size` (waiting). */
export interface QueueLimits {
  readonly workers: number;
  readonly waiting: number;
}

/** HTTP_READ, HTTP_UPDATE: the node's defaults (aeternity_config_schema.json, `regulators`), 7.2.2 and after. */
export const HTTP_READ: QueueLimits = { workers: 5, waiting: 100 };
export const HTTP_UPDATE: QueueLimits = { workers: 5, waiting: 50 };

/** UNBOUNDED: a regulator that admits every request at once (a test that needs an unbounded node). */
export const UNBOUNDED: QueueLimits = { workers: Infinity, waiting: 0 };

/** checkLimits throws a RangeError for sizes a node could not have (workers below 1, a negative queue). */
export function checkLimits(name: string, limits: QueueLimits): QueueLimits {
  const whole = (n: number): boolean => n === Infinity || Number.isSafeInteger(n);
  if (!whole(limits.workers) || limits.workers < 1 || !whole(limits.waiting) || limits.waiting < 0)
    throw new RangeError(`${name}: workers must be 1 or more and waiting 0 or more, not ${JSON.stringify(limits)}`);
  return limits;
}

/** parseQueueLimits reads a flag's `W:Q` (workers, waiting), e.g. `5:100`; anything else is an Error naming the flag. */
export function parseQueueLimits(flag: string, input: string): QueueLimits {
  const m = /^(\d+):(\d+)$/.exec(input.trim());
  const limits = m ? { workers: Number(m[1]), waiting: Number(m[2]) } : undefined;
  if (!limits || limits.workers < 1 || !Number.isSafeInteger(limits.workers) || !Number.isSafeInteger(limits.waiting))
    throw new Error(
      `${flag} must be W:Q, W requests running at once (1 or more) and Q waiting (0 or more), got ${input}`,
    );
  return limits;
}

/** Regulator admits requests to its workers, queues them while it has room, and rejects the rest at once. */
export class Regulator {
  readonly limits: QueueLimits;
  #running = 0;
  readonly #queue: (() => void)[] = [];

  constructor(limits: QueueLimits) {
    this.limits = limits;
  }

  /** running is how many requests hold a worker now. */
  get running(): number {
    return this.#running;
  }

  /** waiting is how many requests wait for a worker now. */
  get waiting(): number {
    return this.#queue.length;
  }

  /**
   * ask takes a worker for one request: a promise that resolves when the request holds one (at once when one is
   * free), or undefined when the workers and the queue are full: the request is rejected, nothing is held.
   */
  ask(): Promise<void> | undefined {
    if (this.#running < this.limits.workers) {
      this.#running++;
      return Promise.resolve();
    }
    if (this.#queue.length >= this.limits.waiting) return undefined;
    return new Promise((resolve) => this.#queue.push(resolve));
  }

  /** done frees the worker a request held: the first request waiting takes it. */
  done(): void {
    const next = this.#queue.shift();
    if (next) next();
    else this.#running--;
  }
}
