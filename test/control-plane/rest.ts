/** @module The node agent's plain REST calls to the API server, as the cluster admin (client certificate). */
import { readFileSync } from 'node:fs';
import { Agent, request } from 'undici';
import type { ClusterCerts } from './certs.ts';

/** KubeRest sends JSON requests to the API server and parses the answers; a non-2xx answer is a KubeRestError. */
export class KubeRest {
  readonly #url: string;
  readonly #dispatcher: Agent;

  constructor(url: string, certs: ClusterCerts) {
    this.#url = url;
    this.#dispatcher = new Agent({
      connect: {
        ca: readFileSync(certs.caCert),
        cert: readFileSync(certs.adminCert),
        key: readFileSync(certs.adminKey),
      },
    });
  }

  async call<T>(method: string, path: string, body?: unknown, contentType = 'application/json'): Promise<T> {
    const res = await request(`${this.#url}${path}`, {
      method: method as 'GET',
      dispatcher: this.#dispatcher,
      headers: { accept: 'application/json', ...(body === undefined ? {} : { 'content-type': contentType }) },
      body: body === undefined ? undefined : JSON.stringify(body),
      headersTimeout: 30_000,
      bodyTimeout: 30_000,
    });
    const text = await res.body.text();
    if (res.statusCode < 200 || res.statusCode > 299) throw new KubeRestError(res.statusCode, method, path, text);
    return JSON.parse(text) as T;
  }

  get<T>(path: string): Promise<T> {
    return this.call<T>('GET', path);
  }

  /**
   * watch opens a watch (path with `watch=1` and its resourceVersion) and calls onData with each piece of its stream
   * (JSON events one a line, a piece's last perhaps cut), until the API server ends it (its request timeout, a 410
   * for a version compacted away: an ERROR line, which is data too) or the connection fails, then onEnd once. stop()
   * ends it.
   */
  watch(path: string, onData: (chunk: Buffer) => void, onEnd: () => void): { stop(): void } {
    const abort = new AbortController();
    void (async () => {
      try {
        const res = await request(`${this.#url}${path}`, {
          dispatcher: this.#dispatcher,
          signal: abort.signal,
          headers: { accept: 'application/json' },
          headersTimeout: 30_000,
          bodyTimeout: 0, // an idle watch sends nothing for as long as nothing changes
        });
        for await (const chunk of res.body) onData(chunk as Buffer);
      } catch {
        // ended: stopped, or its connection failed; the agent lists and watches again either way
      } finally {
        onEnd();
      }
    })();
    return { stop: () => abort.abort() };
  }

  async close(): Promise<void> {
    await this.#dispatcher.close();
  }
}

/** KubeRestError is an API server's refusal: its status and message. */
export class KubeRestError extends Error {
  readonly status: number;
  constructor(status: number, method: string, path: string, body: string) {
    super(`${method} ${path}: ${status} ${body.slice(0, 500)}`);
    this.status = status;
  }
}
