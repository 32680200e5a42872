/** @module One HTTP(S) GET with a keep-alive agent, a deadline and an abort signal: node:http, no fetch overhead. */
import http from 'node:http';
import https from 'node:https';

/** Keep-alive agents shared by every client of this process (the node is asked thousands of times a second). */
const AGENTS = { http: new http.Agent({ keepAlive: true }), https: new https.Agent({ keepAlive: true }) };
const HEADERS = { accept: 'application/json' };

/** Why a GET failed before an answer: too slow, or no connection (refused, reset, aborted). */
export class HttpGetError extends Error {
  override readonly name = 'HttpGetError';
  readonly timedOut: boolean;
  constructor(message: string, timedOut: boolean, options?: { cause?: unknown }) {
    super(message, options);
    this.timedOut = timedOut;
  }
}

/** HttpBase is a base URL taken apart once, for GETs of many paths under it (the node client's every request). */
export interface HttpBase {
  readonly https: boolean;
  readonly hostname: string;
  readonly port: string;
  /** the base URL's path, without a trailing slash */
  readonly path: string;
}

/** httpBase takes a base URL apart (a URL per request costs the client a parse per request). */
export function httpBase(url: string): HttpBase {
  const u = new URL(url);
  // node:http wants an IPv6 literal without its brackets
  const hostname = u.hostname.startsWith('[') ? u.hostname.slice(1, -1) : u.hostname;
  return { https: u.protocol === 'https:', hostname, port: u.port, path: u.pathname.replace(/\/+$/, '') };
}

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

/**
 * httpGet resolves with the status and the whole body as text, or rejects with an HttpGetError. `url` is a URL, or a
 * base (httpBase) and the path under it.
 */
export function httpGet(
  url: URL | { readonly base: HttpBase; readonly path: string },
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const secure = url instanceof URL ? url.protocol === 'https:' : url.base.https;
    const lib = secure ? https : http;
    let settled = false;
    let forget: (() => void) | undefined;
    const finish = (err: HttpGetError | undefined, value?: { status: number; text: string }): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      forget?.();
      if (err) reject(err);
      else resolve(value!);
    };
    const onResponse = (res: http.IncomingMessage): void => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        finish(undefined, {
          status: res.statusCode ?? 0,
          text: chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks).toString('utf8'),
        }),
      );
      res.on('error', (err) => finish(new HttpGetError(err.message, false, { cause: err })));
    };
    const agent = secure ? AGENTS.https : AGENTS.http;
    const req =
      url instanceof URL
        ? lib.get(url, { agent, headers: HEADERS }, onResponse)
        : lib.get(
            {
              hostname: url.base.hostname,
              port: url.base.port,
              path: url.base.path + url.path,
              agent,
              headers: HEADERS,
            },
            onResponse,
          );
    const timer = setTimeout(() => {
      finish(new HttpGetError(`no answer within ${timeoutMs} ms`, true));
      req.destroy();
    }, timeoutMs);
    const abort = (): void => {
      finish(new HttpGetError('aborted', false));
      req.destroy();
    };
    if (signal?.aborted) abort();
    else if (signal) forget = onAbort(signal, abort);
    req.on('error', (err) => finish(new HttpGetError(err.message, false, { cause: err })));
  });
}
