/** @module One HTTP(S) GET with a keep-alive agent, a deadline and an abort signal: node:http, no fetch overhead. */
import http from 'node:http';
import https from 'node:https';

/** Keep-alive agents shared by every client of this process (the node is asked thousands of times a second). */
const AGENTS = { http: new http.Agent({ keepAlive: true }), https: new https.Agent({ keepAlive: true }) };

/** Why a GET failed before an answer: too slow, or no connection (refused, reset, aborted). */
export class HttpGetError extends Error {
  override readonly name = 'HttpGetError';
  readonly timedOut: boolean;
  constructor(message: string, timedOut: boolean, options?: { cause?: unknown }) {
    super(message, options);
    this.timedOut = timedOut;
  }
}

/** httpGet resolves with the status and the whole body as text, or rejects with an HttpGetError. */
export function httpGet(url: URL, timeoutMs: number, signal?: AbortSignal): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const lib = url.protocol === 'https:' ? https : http;
    let settled = false;
    const finish = (err: HttpGetError | undefined, value?: { status: number; text: string }): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', abort);
      if (err) reject(err);
      else resolve(value!);
    };
    const req = lib.get(
      url,
      { agent: url.protocol === 'https:' ? AGENTS.https : AGENTS.http, headers: { accept: 'application/json' } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          finish(undefined, { status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }),
        );
        res.on('error', (err) => finish(new HttpGetError(err.message, false, { cause: err })));
      },
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
    else signal?.addEventListener('abort', abort, { once: true });
    req.on('error', (err) => finish(new HttpGetError(err.message, false, { cause: err })));
  });
}
