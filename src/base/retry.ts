/**
 * @module The one retry helper: capped exponential backoff with jitter and a wait that an `AbortSignal` cuts short.
 * Every loop that retries (node requests, the populator, LISTEN reconnects, the operator's watches and queue)
 * takes its delays from here, and a server's Retry-After (a node's 503) lengthens them to what it asked, within bounds.
 */
import { errorMessage } from './errors.ts';
import type { Logger } from './log.ts';

export interface BackoffOptions {
  /** Delay before the first retry. */
  readonly initialMs: number;
  /** Ceiling of every delay. */
  readonly maxMs: number;
  /**
   * Fraction of each delay drawn at random, 0 to 1 (default 0): 0.2 spreads a 1000 ms delay over 800–1200 ms, so
   * many clients that lost the same dependency do not all come back in the same millisecond.
   */
  readonly jitter?: number;
}

/** backoffDelay is the wait before retry `attempt` (1-based): doubling from `initialMs`, capped at `maxMs`. */
export function backoffDelay(attempt: number, options: BackoffOptions, random: () => number = Math.random): number {
  const base = Math.min(options.maxMs, options.initialMs * 2 ** Math.max(0, attempt - 1));
  const jitter = Math.min(1, Math.max(0, options.jitter ?? 0));
  if (jitter === 0) return base;
  return Math.round(Math.min(options.maxMs, base * (1 - jitter + 2 * jitter * random())));
}

/** Backoff counts failures in a row and hands out the next delay; `reset` after a success. */
export class Backoff {
  readonly #options: BackoffOptions;
  #failures = 0;

  constructor(options: BackoffOptions) {
    this.#options = options;
  }

  /** Failures since the last reset. */
  get failures(): number {
    return this.#failures;
  }

  /** next counts one more failure and returns the delay before the next try. */
  next(): number {
    this.#failures += 1;
    return backoffDelay(this.#failures, this.#options);
  }

  reset(): void {
    this.#failures = 0;
  }
}

/** sleep waits `ms`, ending early (without error) when `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}

/**
 * MAX_RETRY_AFTER_MS bounds the wait a server's Retry-After asks for: one asking longer is asked again after this long
 * (the node asks 3 s when its request queue is full and 30 s while it is not ready, aehttp_helpers).
 */
export const MAX_RETRY_AFTER_MS = 60_000;

/** IMF-fixdate and the two obsolete HTTP-date forms a recipient must accept (RFC 9110 §5.6.7). */
const HTTP_DATE = [
  /^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/,
  /^[A-Z][a-z]+, \d{2}-[A-Z][a-z]{2}-\d{2} \d{2}:\d{2}:\d{2} GMT$/,
  /^[A-Z][a-z]{2} [A-Z][a-z]{2} [ \d]\d \d{2}:\d{2}:\d{2} \d{4}$/,
];

/**
 * retryAfterMs reads a Retry-After value (RFC 9110 §10.2.3), delay-seconds or an HTTP-date, as the milliseconds to
 * wait from `nowMs`, within [0, maxMs]; undefined when absent or malformed (then the caller's own backoff applies).
 * Pure.
 */
export function retryAfterMs(
  value: string | undefined,
  nowMs: number,
  maxMs: number = MAX_RETRY_AFTER_MS,
): number | undefined {
  const text = value?.trim();
  if (text === undefined || text === '') return undefined;
  let ms: number;
  if (/^\d+$/.test(text)) ms = Number(text) * 1000;
  else if (HTTP_DATE.some((form) => form.test(text))) {
    // an asctime date has no zone: it is GMT
    const at = Date.parse(text.endsWith('GMT') ? text : `${text} GMT`);
    if (Number.isNaN(at)) return undefined;
    ms = at - nowMs;
  } else return undefined;
  return Math.min(maxMs, Math.max(0, ms));
}

/** waitBefore is the wait before another try: the backoff's, or longer when the server asked for longer (Retry-After). */
export function waitBefore(backoffMs: number, retryAfter: number | undefined): number {
  return retryAfter === undefined ? backoffMs : Math.max(backoffMs, retryAfter);
}

export interface RetryOptions extends BackoffOptions {
  /** Tries in all, the first included. */
  readonly attempts: number;
  /** Stops retrying (the last error is thrown) once aborted; waits end early too. */
  readonly signal?: AbortSignal;
  /** Whether an error is worth another try (default: every error). */
  readonly retryable?: (err: unknown) => boolean;
  /** The wait an error asks for (a server's Retry-After, in ms): the delay is never shorter. */
  readonly retryAfter?: (err: unknown) => number | undefined;
  /** Called before each wait, with the failed attempt's number (1-based), its error and the delay chosen. */
  readonly onRetry?: (attempt: number, err: unknown, delayMs: number) => void;
}

/** retry runs `fn` until it resolves, an error is not retryable, `attempts` are spent or `signal` aborts. */
export async function retry<T>(fn: (attempt: number) => Promise<T>, options: RetryOptions): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn(attempt);
    } catch (err) {
      const last = attempt >= options.attempts || options.signal?.aborted === true;
      if (last || !(options.retryable?.(err) ?? true)) throw err;
      const delay = waitBefore(backoffDelay(attempt, options), options.retryAfter?.(err));
      options.onRetry?.(attempt, err, delay);
      await sleep(delay, options.signal);
      if (options.signal?.aborted) throw err;
    }
  }
}

/** DEPENDENCY_BACKOFF: a start's waits for a dependency that is away (the database, the node), from 250 ms to 5 s. */
export const DEPENDENCY_BACKOFF: BackoffOptions = { initialMs: 250, maxMs: 5000, jitter: 0.2 };

/**
 * AwayLog tells of a dependency `retry` waits for: one warning when it is first found away (with the error's reason),
 * one line when it answered again (with the seconds it was away), never a line per retry. Each line carries `fields`.
 */
export class AwayLog {
  readonly #log: Logger;
  readonly #fields: Readonly<Record<string, unknown>>;
  readonly #messages: { readonly away: string; readonly back: string };
  #since: number | undefined;

  constructor(
    log: Logger,
    fields: Readonly<Record<string, unknown>>,
    messages: { readonly away: string; readonly back: string },
  ) {
    this.#log = log;
    this.#fields = fields;
    this.#messages = messages;
  }

  /** onRetry is `retry`'s: the first failure is logged. */
  readonly onRetry = (_attempt: number, err: unknown): void => {
    if (this.#since !== undefined) return;
    this.#since = Date.now();
    this.#log.warn({ ...this.#fields, reason: errorMessage(err) }, this.#messages.away);
  };

  /** answered logs that the dependency answers again, when it was found away. */
  answered(): void {
    if (this.#since === undefined) return;
    this.#log.info({ ...this.#fields, seconds: Math.round((Date.now() - this.#since) / 1000) }, this.#messages.back);
    this.#since = undefined;
  }
}
