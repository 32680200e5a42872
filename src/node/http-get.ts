/**
 * @module The middleware's one outbound HTTP layer (the node, its mempool, dry-runs, the Sophia compiler; only the
 * /v2 proxy streams on its own, and counts in the same metric): one GET (or a POST that changes nothing) with a
 * deadline and an abort signal, over undici's keep-alive connection pools, each timed and counted by its Meter
 * (outbound-metrics.ts) when it has one. A request costs the client about a quarter less CPU than node:http's (no
 * ClientRequest, no IncomingMessage stream, no agent bookkeeping per request; measured with bench/sync.ts).
 */
import { errors, Pool, type Dispatcher } from 'undici';
import { statusOutcome, type Meter, type OutboundOutcome } from './outbound-metrics.ts';

/** NoAnswer: why a request got no answer: too slow, no connection (refused, reset), or its signal aborted it. */
export type NoAnswer = Extract<OutboundOutcome, 'timeout' | 'unreachable' | 'aborted'>;

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
const POOLS = new Map<string, Pool>();

function pool(origin: string): Pool {
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
  return err instanceof errors.SocketError && (err.socket?.bytesRead ?? 0) > 0;
}
const RETRIES = 3;

/**
 * The requests to abort per signal. One listener per signal for its lifetime: an `abort` listener added and removed
 * per request cost the populator about 1 % of its CPU (EventTarget's bookkeeping).
 */
const ABORTS = new WeakMap<AbortSignal, Set<() => void>>();

function onAbort(signal: AbortSignal, abort: () => void): () => void {
  let pending = ABORTS.get(signal);
  if (pending === undefined) {
    const set = new Set<() => void>();
    pending = set;
    ABORTS.set(signal, set);
    signal.addEventListener(
      'abort',
      () => {
        for (const f of [...set]) f();
        set.clear();
      },
      { once: true },
    );
  }
  pending.add(abort);
  const set = pending;
  return () => set.delete(abort);
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
    const sentAt = meter === undefined ? 0 : performance.now();
    const [origin, path] =
      url instanceof URL ? [url.origin, url.pathname + url.search] : [url.base.origin, url.base.path + url.path];
    let settled = false;
    let forget: (() => void) | undefined;
    let controller: Controller | undefined;
    let retries = 0;
    const finish = (err: HttpGetError | undefined, value?: HttpAnswer): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      forget?.();
      meter?.(err ? err.outcome : statusOutcome(value!.status), (performance.now() - sentAt) / 1000);
      if (err) {
        reject(err);
        controller?.abort(err);
      } else resolve(value!);
    };
    const dispatch = (): void => {
      let status = 0;
      let retryAfter: string | undefined;
      let started = false;
      const chunks: Buffer[] = [];
      pool(origin).dispatch(
        body === undefined
          ? { origin, path, method, headers: HEADERS }
          : { origin, path, method, headers: postHeaders, body, idempotent: true },
        {
          onRequestStart(c) {
            controller = c;
            if (settled) c.abort(new HttpGetError('aborted', 'aborted'));
          },
          onResponseStart(_c, statusCode, headers) {
            status = statusCode;
            started = true;
            if (statusCode >= 400) {
              const value = headers['retry-after'];
              retryAfter = Array.isArray(value) ? value[0] : value;
            }
          },
          onResponseData(_c, chunk) {
            chunks.push(chunk);
          },
          onResponseEnd() {
            const text = chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks).toString('utf8');
            finish(undefined, retryAfter === undefined ? { status, text } : { status, text, retryAfter });
          },
          onResponseError(_c, err) {
            if (!settled && !started && retries < RETRIES && closedWhenReused(err)) {
              retries++;
              controller = undefined;
              dispatch();
            } else finish(new HttpGetError(err.message, 'unreachable', { cause: err }));
          },
        },
      );
    };
    const timer = setTimeout(() => finish(new HttpGetError(`no answer within ${timeoutMs} ms`, 'timeout')), timeoutMs);
    if (signal?.aborted) finish(new HttpGetError('aborted', 'aborted'));
    else {
      if (signal) forget = onAbort(signal, () => finish(new HttpGetError('aborted', 'aborted')));
      dispatch();
    }
  });
}
