/**
 * @module The devnode's pace, one model of what makes a real node refuse and take its time. A node runs each API
 * operation through one of two regulators (regulator.ts) that both its listeners share: `http_read` for every GET
 * (5 running, 100 waiting) and `http_update` for every POST (transactions and both dry-runs: 5 running, 50
 * waiting); a request finding its regulator full is refused at once, 503 `{"reason":"Temporary overload"}`, with no
 * `Retry-After` on 7.2.2 (`Retry-After: 3` after it: `overloadRetryAfter`). A request holds its worker for its
 * service time, with the devnode's own work inside it (not added after): the answer is written when the time is up,
 * or when the work ends if that took longer (an overrun). The service time is none by default (the devnode answers
 * as fast as it can, still within the regulators), a flat `latencyMs` (±20 %), or a recorded node's per endpoint kind
 * and load (`nodeProfile`, node-profile.ts), so that the devnode is as slow as that node at the same concurrency;
 * with a profile a dry-run's items past its first hold the worker the node's time each (a reply's `holdMs`,
 * endpoint-gates.ts), and past the node's time limit its refusal holds it until the limit.
 * The routing and the body's parsing come before the regulator, as in the node (its router and request validation
 * answer a 404, 405, 415 or 400 without a turn); the devnode's own controls (`/debug/dev/…`) and its `/api` are not
 * the node's and take none.
 */
import type { Regulate, Reply } from './http.ts';
import { dryRunItemMs, endpointKind, NODE_PROFILES, serviceMs, type NodeProfile } from './node-profile.ts';
import { checkLimits, HTTP_READ, HTTP_UPDATE, Regulator, UNBOUNDED, type QueueLimits } from './regulator.ts';

export interface PacingOptions {
  /** every answer takes this many milliseconds (±20 %) from its admission, whatever its kind; before nodeProfile */
  readonly latencyMs?: number;
  /** the service times of a recorded node (NODE_PROFILES: `7.2.2`), by endpoint kind and load */
  readonly nodeProfile?: string;
  /** the sizes of the node's regulators (its defaults when absent); false: every request admitted at once */
  readonly regulators?: false | { readonly httpRead?: QueueLimits; readonly httpUpdate?: QueueLimits };
  /** the seconds a refusal's `Retry-After` says (a node after 7.2.2 says 3); absent: none, as 7.2.2 */
  readonly overloadRetryAfter?: number;
  /** the jitter's source of randomness (tests pass a fixed one) */
  readonly random?: () => number;
}

/** QueueName is a regulator's name in the node's config. */
export type QueueName = 'http_read' | 'http_update';
export const QUEUE_NAMES: readonly QueueName[] = ['http_read', 'http_update'];

/** queueOf is the regulator a request of `method` goes through: every GET reads, every POST updates. */
export function queueOf(method: string): QueueName {
  return method === 'GET' ? 'http_read' : 'http_update';
}

/** UNREGULATED: the devnode's own controls and its API document, which no node has and no queue holds. */
const UNREGULATED = /\/debug\/dev\/|^\/api$/;

/** OVERLOAD_REASON is the node's reason for a request its regulator had no room for. */
export const OVERLOAD_REASON = 'Temporary overload';

/** overloadReply is the node's refusal (aehttp_dispatch_ext:run, `{rejected, _}`), with `Retry-After` when given. */
export function overloadReply(retryAfter: string | undefined): Reply {
  return {
    status: 503,
    body: `{"reason":"${OVERLOAD_REASON}"}`,
    ...(retryAfter === undefined ? {} : { headers: { 'retry-after': retryAfter } }),
  };
}

/** JITTER is the spread of each service time around its mean: ±20 %. */
const JITTER = 0.2;

/** jitteredLatency draws one answer's service time: uniform over latencyMs × [0.8, 1.2]. Pure given `random`. */
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

/** QueueStats are one regulator's sizes, its load now and its counts since the devnode started. */
export interface QueueStats {
  readonly limits: QueueLimits;
  readonly running: number;
  readonly waiting: number;
  /** answers written */
  readonly answers: number;
  /** the sum of their times from admission to written: the worker-milliseconds the answers held */
  readonly answerMs: number;
  /** the sum of their waits in the queue before admission */
  readonly queuedMs: number;
  /** answers whose own work took longer than their service time (the devnode's CPU set their time) */
  readonly overran: number;
  /** requests refused, the regulator full */
  readonly refused: number;
}

/** PacingStats are the model's settings and each regulator's QueueStats. */
export interface PacingStats {
  readonly latencyMs: number | null;
  readonly nodeProfile: string | null;
  readonly overloadRetryAfter: number | null;
  readonly queues: Readonly<Record<QueueName, QueueStats>>;
}

type Counts = { answers: number; answerMs: number; queuedMs: number; overran: number; refused: number };

/** profileOf is the recorded node's profile that paces (none with a flat latency or no profile). */
function profileOf(opts: PacingOptions): NodeProfile | undefined {
  if ((opts.latencyMs !== undefined && opts.latencyMs > 0) || opts.nodeProfile === undefined) return undefined;
  const profile: NodeProfile | undefined = NODE_PROFILES[opts.nodeProfile];
  if (!profile)
    throw new RangeError(`no node profile ${opts.nodeProfile} (there are: ${Object.keys(NODE_PROFILES).join(', ')})`);
  return profile;
}

/** serviceTimeOf is how a request's service time is found: flat, from the profile (profileOf), or none. */
function serviceTimeOf(
  opts: PacingOptions,
  profile: NodeProfile | undefined,
): (method: string, path: string, inNode: number, workers: number) => number {
  if (opts.latencyMs !== undefined && opts.latencyMs > 0) return () => opts.latencyMs!;
  if (!profile) return () => 0;
  return (method, path, inNode, workers) => serviceMs(profile[endpointKind(method, path)], inNode, workers);
}

/**
 * Pacer is a node's pace: its two regulators, shared by its listeners, and each request's service time; it keeps
 * the counts of `stats`.
 */
export class Pacer {
  readonly #opts: PacingOptions;
  readonly #regulators: Readonly<Record<QueueName, Regulator>>;
  readonly #counts: Record<QueueName, Counts>;
  readonly #serviceMs: ReturnType<typeof serviceTimeOf>;
  readonly #dryRunItemMs: number;
  readonly #retryAfter: string | undefined;
  readonly #random: () => number;
  /** ms taken off each wait so that timers, which fire late on a busy event loop, fire on time on average */
  #correctionMs = 0;

  constructor(opts: PacingOptions = {}) {
    this.#opts = opts;
    const sizes = opts.regulators === false ? { httpRead: UNBOUNDED, httpUpdate: UNBOUNDED } : opts.regulators;
    this.#regulators = {
      http_read: new Regulator(checkLimits('http_read', sizes?.httpRead ?? HTTP_READ)),
      http_update: new Regulator(checkLimits('http_update', sizes?.httpUpdate ?? HTTP_UPDATE)),
    };
    const zero = (): Counts => ({ answers: 0, answerMs: 0, queuedMs: 0, overran: 0, refused: 0 });
    this.#counts = { http_read: zero(), http_update: zero() };
    const profile = profileOf(opts);
    this.#serviceMs = serviceTimeOf(opts, profile);
    this.#dryRunItemMs = profile ? dryRunItemMs(profile) : 0;
    this.#retryAfter = opts.overloadRetryAfter === undefined ? undefined : String(opts.overloadRetryAfter);
    this.#random = opts.random ?? Math.random;
  }

  /** retryAfter is what the node's refusals say in `Retry-After` (undefined: no such header). */
  get retryAfter(): string | undefined {
    return this.#retryAfter;
  }

  /**
   * dryRunItemMs is what each item of a dry-run costs the paced node (node-profile.ts dryRunItemMs), counted against
   * its time limit (endpoint-gates.ts); 0 unless a recorded node's profile paces: the devnode's own time counts then.
   */
  get dryRunItemMs(): number {
    return this.#dryRunItemMs;
  }

  /** regulate is this pace for one listener: `refuse` (the overload on demand) answers a request first if it will. */
  regulate(refuse?: () => Reply | undefined): Regulate {
    return {
      serve: (method, path, work) => {
        if (UNREGULATED.test(path)) return work();
        return Promise.resolve(refuse?.() ?? this.serve(method, path, work));
      },
    };
  }

  /**
   * serve runs `work` (a routed request's answer) once its regulator gives it a worker, and resolves with its reply
   * when its service time, counted from admission, and the reply's own `holdMs` are up (at once if the work took
   * longer); the worker is freed then. A full regulator refuses it at once.
   */
  async serve(method: string, path: string, work: () => Promise<Reply>): Promise<Reply> {
    const name = queueOf(method);
    const regulator = this.#regulators[name];
    const counts = this.#counts[name];
    const arrived = performance.now();
    const turn = regulator.ask();
    if (!turn) {
      counts.refused++;
      return overloadReply(this.#retryAfter);
    }
    await turn;
    const admitted = performance.now();
    const ms = this.#serviceMs(method, path, regulator.running + regulator.waiting, regulator.limits.workers);
    const serviceDue = admitted + (ms > 0 ? jitteredLatency(ms, this.#random) : 0);
    try {
      const reply = await work().then(
        (value) => ({ value }),
        (error: unknown) => ({ error }),
      );
      const due = serviceDue + ('value' in reply ? (reply.value.holdMs ?? 0) : 0);
      if (performance.now() < due) await this.#until(due, ms);
      else if (ms > 0) counts.overran++;
      if ('error' in reply) throw reply.error;
      return reply.value;
    } finally {
      regulator.done();
      counts.answers++;
      counts.answerMs += performance.now() - admitted;
      counts.queuedMs += admitted - arrived;
    }
  }

  /** stats are the settings and each regulator's counts so far (see PacingStats). */
  stats(): PacingStats {
    const queue = (name: QueueName): QueueStats => ({
      limits: this.#regulators[name].limits,
      running: this.#regulators[name].running,
      waiting: this.#regulators[name].waiting,
      ...this.#counts[name],
    });
    return {
      latencyMs: this.#opts.latencyMs !== undefined && this.#opts.latencyMs > 0 ? this.#opts.latencyMs : null,
      nodeProfile: this.#opts.nodeProfile ?? null,
      overloadRetryAfter: this.#opts.overloadRetryAfter ?? null,
      queues: { http_read: queue('http_read'), http_update: queue('http_update') },
    };
  }

  /** #until resolves at `due` (performance.now() time), as near as the event loop allows, on average exactly. */
  #until(due: number, serviceMs: number): Promise<void> {
    return new Promise((resolve) => {
      // whole milliseconds: Node keeps one timer list per duration, so a handful of lists serve every answer instead
      // of one new list per fractional wait; the rounding averages out, and the correction takes what does not
      const wait = Math.max(0, Math.round(due - performance.now() - this.#correctionMs));
      setTimeout(() => {
        this.#correctionMs = timerCorrection(this.#correctionMs, performance.now() - due, serviceMs / 2);
        resolve();
      }, wait);
    });
  }
}
