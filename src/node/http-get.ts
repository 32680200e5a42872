/**
 * @module The middleware's one outbound HTTP layer (the node, its mempool, dry-runs, the Sophia compiler; only the
 * /v2 proxy streams on its own, and counts in the same metric): one GET (or a POST that changes nothing) with a
 * deadline and an abort signal, over undici's keep-alive connection pools, each timed and counted by its Meter
 * (outbound-metrics.ts) when it has one. A request costs the client about a quarter less CPU than node:http's (no
 * ClientRequest, no IncomingMessage stream, no agent bookkeeping per request; measured with bench/sync.ts).
 */
import { createRequire } from 'node:module';
import type { Dispatcher, errors as UndiciErrors, Pool as UndiciPool } from 'undici';
// types only: the metrics' module loads prom-client, which a process that serves no metrics (a migration, -v) skips
import type { Meter, OutboundOutcome } from './outbound-metrics.ts';

/*
 * undici's pool and its errors, required from their own files: its index loads its whole API (fetch, WebSocket, the
 * caches, the mocks: 109 modules, about 0.06 CPU-s more at the start of each process that asks the node), of which
 * this layer uses these two (21 modules). Types come from the index's declarations, which cost nothing at run time.
 */
const require = createRequire(import.meta.url);
const Pool = require('undici/lib/dispatcher/pool.js') as typeof UndiciPool;
const { SocketError } = require('undici/lib/core/errors.js') as typeof UndiciErrors;

/** NoAnswer: why a request got no answer: too slow, no connection (refused, reset), or its signal aborted it. */
export type NoAnswer = Extract<OutboundOutcome, 'timeout' | 'unreachable' | 'aborted'>;

/** statusOutcome is the outcome of an answer with HTTP status `status`. Pure. */
export function statusOutcome(status: number): OutboundOutcome {
  if (status >= 500) return '5xx';
  if (status >= 400) return '4xx';
  if (status >= 300) return '3xx';
  if (status >= 200) return '2xx';
  return '1xx';
}

/** Why a request failed before an answer (`outcome`). */
export class HttpGetError extends Error {
  override readonly name = 'HttpGetError';
  readonly outcome: NoAnswer;
  constructor(message: string, outcome: NoAnswer, options?: { cause?: unknown }) {
    super(message, options);
    this.outcome = outcome;
  }

  /** timedOut says whether the request had no answer within its deadline. */
  get timedOut(): boolean {
    return this.outcome === 'timeout';
  }
}

/** RequestOptions: what a request may carry besides its URL and deadline. */
export interface RequestOptions {
  /** aborts the request (it rejects with the `aborted` outcome) */
  readonly signal?: AbortSignal;
  /** times and counts the request by its outcome (outbound-metrics.ts) */
  readonly meter?: Meter;
}

/** HttpBase is a base URL taken apart once, for GETs of many paths under it (the node client's every request). */
export interface HttpBase {
  /** `http(s)://host:port`: whose connection pool serves the requests */
  readonly origin: string;
  /** the base URL's path, without a trailing slash */
  readonly path: string;
}

/** httpBase takes a base URL apart (a URL per request costs the client a parse per request). */
export function httpBase(url: string): HttpBase {
  const u = new URL(url);
  return { origin: u.origin, path: u.pathname.replace(/\/+$/, '') };
}

/**
 * The connection pools by origin, shared by every client of this process (the node is asked thousands of times a
 * second). Unbounded: the node set (node-set.ts) bounds the requests in flight, one per connection, in order, as a
 * real node serves them. Neither timeout of undici's own: each request has its deadline (httpGet's `timeoutMs`).
 * An idle connection is closed after 4 s, or 2 s before the server's own `Keep-Alive: timeout` hint (undici's
 * defaults): before the server closes it, so that a request seldom meets a closed connection (see closedWhenReused).
 */
const POOLS = new Map<string, UndiciPool>();

function pool(origin: string): UndiciPool {
  let p = POOLS.get(origin);
  if (p === undefined) {
    p = new Pool(origin, { headersTimeout: 0, bodyTimeout: 0 });
    POOLS.set(origin, p);
  }
  return p;
}

const HEADERS = { accept: 'application/json' };

/**
 * closedWhenReused says whether an error is a keep-alive connection the server closed before any answer, a connection
 * that had answered before (undici's SocketError tells what the socket had read). Such a connection can meet the
 * server's idle close in flight (a slow client's timers fire late, and the server closes all its idle connections
 * at about the same time), and the request is sent again at once, at most RETRIES times, as Node's documentation advises
 * for a `reusedSocket`. A fresh connection closed under its request is the node's failure, and a reset says nothing
 * of the connection's past: both are the caller's to retry.
 */
function closedWhenReused(err: Error): boolean {
  return err instanceof SocketError && (err.socket?.bytesRead ?? 0) > 0;
}
const RETRIES = 3;

/**
 * The exchanges to abort per signal. One listener per signal for its lifetime: an `abort` listener added and removed
 * per request cost the populator about 1 % of its CPU (EventTarget's bookkeeping).
 */
const ABORTS = new WeakMap<AbortSignal, Set<Exchange>>();

/** abortsOf is the set of exchanges `signal` aborts, its listener added with the set. */
function abortsOf(signal: AbortSignal): Set<Exchange> {
  let pending = ABORTS.get(signal);
  if (pending === undefined) {
    const set = new Set<Exchange>();
    pending = set;
    ABORTS.set(signal, set);
    signal.addEventListener(
      'abort',
      () => {
        for (const exchange of [...set]) exchange.finish(new HttpGetError('aborted', 'aborted'));
        set.clear();
      },
      { once: true },
    );
  }
  return pending;
}

type Controller = Parameters<NonNullable<Dispatcher.DispatchHandler['onRequestStart']>>[0];

type Target = URL | { readonly base: HttpBase; readonly path: string };

/** HttpAnswer is an answer's status, its whole body as text and, on an error status, its Retry-After value. */
export interface HttpAnswer {
  readonly status: number;
  readonly text: string;
  /** the Retry-After header of an error answer (a node's 503), as sent */
  readonly retryAfter?: string;
}

/**
 * httpGet resolves with the status and the whole body as text, or rejects with an HttpGetError. `url` is a URL, or a
 * base (httpBase) and the path under it.
 */
export function httpGet(url: Target, timeoutMs: number, options: RequestOptions = {}): Promise<HttpAnswer> {
  return send(url, 'GET', undefined, timeoutMs, options);
}

/**
 * httpPostJson is httpGet for a POST of a JSON body that changes nothing at the server (a dry-run, a compilation),
 * on the same connections: sent again like a GET when a kept-alive connection was closed under it. `headers` are
 * sent besides the JSON ones (the compiler's version header).
 */
export function httpPostJson(
  url: Target,
  json: string,
  timeoutMs: number,
  options: RequestOptions & { readonly headers?: Readonly<Record<string, string>> } = {},
): Promise<HttpAnswer> {
  const { headers } = options;
  return send(
    url,
    'POST',
    json,
    timeoutMs,
    options,
    headers === undefined ? JSON_HEADERS : { ...JSON_HEADERS, ...headers },
  );
}

const JSON_HEADERS = { accept: 'application/json', 'content-type': 'application/json' };

function send(
  url: Target,
  method: 'GET' | 'POST',
  body: string | undefined,
  timeoutMs: number,
  { signal, meter }: RequestOptions,
  postHeaders: Readonly<Record<string, string>> = JSON_HEADERS,
): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    const [origin, path] =
      url instanceof URL ? [url.origin, url.pathname + url.search] : [url.base.origin, url.base.path + url.path];
    const options: Dispatcher.DispatchOptions =
      body === undefined
        ? { origin, path, method, headers: HEADERS }
        : { origin, path, method, headers: postHeaders, body, idempotent: true };
    new Exchange(options, meter, resolve, reject).start(timeoutMs, signal);
  });
}

/** timedOut ends an exchange at its deadline (a function of the module's: no closure per request). */
function timedOut(exchange: Exchange, timeoutMs: number): void {
  exchange.finish(new HttpGetError(`no answer within ${timeoutMs} ms`, 'timeout'));
}

/**
 * Exchange is one request until its answer: its attempts (a kept-alive connection closed under one sends it again,
 * closedWhenReused), its deadline and abort, and the handler of each attempt's answer. One object per request for
 * what were a closure for each part of it (the node is asked thousands of times a second).
 */
class Exchange implements Dispatcher.DispatchHandler {
  readonly #options: Dispatcher.DispatchOptions;
  readonly #meter: Meter | undefined;
  readonly #resolve: (answer: HttpAnswer) => void;
  readonly #reject: (err: HttpGetError) => void;
  readonly #sentAt: number;
  #settled = false;
  #timer: NodeJS.Timeout | undefined;
  /** the exchanges of the signal that aborts this one */
  #aborts: Set<Exchange> | undefined;
  #controller: Controller | undefined;
  #retries = 0;
  // the attempt's answer so far
  #status = 0;
  #retryAfter: string | undefined;
  #started = false;
  #chunks: Buffer[] = [];

  constructor(
    options: Dispatcher.DispatchOptions,
    meter: Meter | undefined,
    resolve: (answer: HttpAnswer) => void,
    reject: (err: HttpGetError) => void,
  ) {
    this.#options = options;
    this.#meter = meter;
    this.#resolve = resolve;
    this.#reject = reject;
    this.#sentAt = meter === undefined ? 0 : performance.now();
  }

  start(timeoutMs: number, signal: AbortSignal | undefined): void {
    this.#timer = setTimeout(timedOut, timeoutMs, this, timeoutMs);
    if (signal?.aborted) this.finish(new HttpGetError('aborted', 'aborted'));
    else {
      if (signal) (this.#aborts = abortsOf(signal)).add(this);
      this.#dispatch();
    }
  }

  finish(err: HttpGetError | undefined, value?: HttpAnswer): void {
    if (this.#settled) return;
    this.#settled = true;
    clearTimeout(this.#timer);
    this.#aborts?.delete(this);
    this.#meter?.(err ? err.outcome : statusOutcome(value!.status), (performance.now() - this.#sentAt) / 1000);
    if (err) {
      this.#reject(err);
      this.#controller?.abort(err);
    } else this.#resolve(value!);
  }

  #dispatch(): void {
    pool(this.#options.origin as string).dispatch(this.#options, this);
  }

  onRequestStart(c: Controller): void {
    this.#controller = c;
    if (this.#settled) c.abort(new HttpGetError('aborted', 'aborted'));
  }

  onResponseStart(_c: Controller, statusCode: number, headers: Record<string, string | string[] | undefined>): void {
    this.#status = statusCode;
    this.#started = true;
    if (statusCode >= 400) {
      const value = headers['retry-after'];
      this.#retryAfter = Array.isArray(value) ? value[0] : value;
    }
  }

  onResponseData(_c: Controller, chunk: Buffer): void {
    this.#chunks.push(chunk);
  }

  onResponseEnd(): void {
    const chunks = this.#chunks;
    const text = chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks).toString('utf8');
    const status = this.#status;
    const retryAfter = this.#retryAfter;
    this.finish(undefined, retryAfter === undefined ? { status, text } : { status, text, retryAfter });
  }

  onResponseError(_c: Controller, err: Error): void {
    if (!this.#settled && !this.#started && this.#retries < RETRIES && closedWhenReused(err)) {
      // an attempt without an answer: nothing of it to forget but its controller
      this.#retries++;
      this.#controller = undefined;
      this.#dispatch();
    } else this.finish(new HttpGetError(err.message, 'unreachable', { cause: err }));
  }
}
