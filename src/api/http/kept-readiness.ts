/**
 * @module The database's readiness kept aside: /readyz answers from the last pings at once, and never waits for a ping
 * longer than WAIT_MS, well within the kubelet's 2 s timeout. Before, under a burst a ping's rows waited for their turn
 * behind the pages rendered before them (issue 89), and on an idle server a database slower than 2 s was judged
 * unreachable and every later probe waited for a ping as long as the probe's own timeout: a shared database slow for
 * everyone took every server out of its Service at once.
 */
import type { Logger } from '../../base/log.ts';
import type { ReadinessGauges } from './metrics.ts';
import {
  databaseState,
  DATABASE_STATES,
  SLOW_MS,
  stateReadiness,
  UNREACHABLE_AFTER_MS,
  type DatabaseState,
  type PingResult,
  type Readiness,
} from './readiness.ts';

/** REFRESH_MS: the age from which a probe sends a new ping (the kubelet probes every few seconds). */
export const REFRESH_MS = 250;

/**
 * WAIT_MS: the longest a probe waits for the ping it sent, only while the database is not known to answer (none yet,
 * failing, unreachable), so a refusal (at once) or a return is its own probe's answer; else it answers from memory.
 */
export const WAIT_MS = 1000;

/**
 * GIVE_UP_MS: a ping unanswered this long no longer holds the next one back (it counts as slow). Longer than the
 * pool's 10 s connect timeout, whose error is the database's answer: unreachable.
 */
export const GIVE_UP_MS = 15_000;

export interface KeptReadinessOptions {
  /** one ping of the database; never rejects */
  readonly ping: () => Promise<PingResult>;
  /** requests wait for their turns: a slow ping is this process busy, not the database slow */
  readonly loaded?: () => boolean;
  /** the pool is full with requests waiting, known in memory: busy at each probe, whatever the last ping found */
  readonly busy?: () => boolean;
  readonly log: Logger;
  readonly metrics?: ReadinessGauges;
}

/** KeptReadiness keeps what the pings found (one in flight at a time); no timer of its own: the probes send them. */
export class KeptReadiness {
  readonly #options: KeptReadinessOptions;
  #answeredAtMs: number | undefined;
  #failingSinceMs: number | undefined;
  #failure = '';
  #lastMs: number | undefined;
  #busy = false;
  #endedAtMs: number | undefined;
  #inFlight: { readonly sentAtMs: number; readonly done: Promise<void> } | undefined;
  #state: DatabaseState | undefined;

  /**
   * The first ping is sent at once (the server's start): a database lost before the first probe is then a failure
   * after answers, judged over UNREACHABLE_AFTER_MS, not one that never answered.
   */
  constructor(options: KeptReadinessOptions) {
    this.#options = options;
    this.#send();
  }

  /**
   * current is the readiness the pings found, sending the next ping when the last ended REFRESH_MS ago; it waits up to
   * WAIT_MS for that ping only while the database is not known to answer.
   */
  async current(): Promise<Readiness> {
    const sentAgo = this.#endedAtMs === undefined ? Infinity : Date.now() - this.#endedAtMs;
    if (this.#inFlight === undefined && sentAgo >= REFRESH_MS) this.#send();
    const known = this.#state === 'answers' || this.#state === 'busy' || this.#state === 'slow';
    if (!known && this.#inFlight) await settledWithin(this.#inFlight.done, WAIT_MS);
    const now = Date.now();
    const pings = {
      ...this.#pings(),
      busy: this.#busy || (this.#options.busy?.() ?? false),
      pendingMs: this.#inFlight ? now - this.#inFlight.sentAtMs : undefined,
    };
    const state = databaseState(pings, now);
    this.#observe(state);
    return stateReadiness(state, pings, now, this.#options.loaded?.() ?? false);
  }

  #send(): void {
    const sentAtMs = Date.now();
    const done = settledWithin(this.#options.ping(), GIVE_UP_MS).then((result) => {
      const now = Date.now();
      this.#record(result, now - sentAtMs, now);
      this.#endedAtMs = now;
      this.#inFlight = undefined;
      this.#observe(databaseState(this.#pings(), now));
    });
    this.#inFlight = { sentAtMs, done };
  }

  /**
   * #record keeps one ping's result taking `ms`; undefined is a ping unanswered within GIVE_UP_MS: slow, and no word
   * on whether connections fail.
   */
  #record(result: PingResult | undefined, ms: number, now: number): void {
    if (result?.outcome === 'failed') {
      this.#failingSinceMs ??= now;
      this.#failure = result.reason;
      this.#busy = false;
      return;
    }
    this.#busy = result?.outcome === 'busy';
    if (result) this.#failingSinceMs = undefined;
    if (result?.outcome === 'busy') return;
    if (result) this.#answeredAtMs = now;
    this.#lastMs = ms;
    this.#options.metrics?.pingSeconds.set(ms / 1000);
  }

  #pings(): { answeredAtMs?: number; failingSinceMs?: number; lastMs?: number; busy: boolean } {
    return {
      answeredAtMs: this.#answeredAtMs,
      failingSinceMs: this.#failingSinceMs,
      lastMs: this.#lastMs,
      busy: this.#busy,
    };
  }

  /** #observe logs a change of state once (never once per probe) and shows the state in the metrics. */
  #observe(state: DatabaseState): void {
    const was = this.#state;
    if (state === was) return;
    this.#state = state;
    const { log, metrics } = this.#options;
    for (const s of DATABASE_STATES) metrics?.state.set({ state: s }, s === state ? 1 : 0);
    const reason = this.#failure;
    if (state === 'slow') {
      log.warn(
        { pingMs: Math.max(this.#lastMs ?? 0, SLOW_MS) },
        'database slow: pings take over 1 s; staying ready, requests answered 503/504 at their deadlines',
      );
    } else if (state === 'failing') {
      log.warn({ reason }, `database unreachable: not ready if it lasts ${UNREACHABLE_AFTER_MS / 1000} s`);
    } else if (state === 'unreachable') {
      log.warn({ reason }, 'not ready: database unreachable');
    } else if (was === 'slow' || was === 'failing' || was === 'unreachable') {
      log.info({ was }, 'database answers again');
    }
  }
}

/** settledWithin is `promise`'s value, or undefined once `ms` passed first. */
async function settledWithin<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}
