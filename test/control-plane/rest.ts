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
