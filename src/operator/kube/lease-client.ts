/**
 * @module The populator's writer Lease over plain HTTPS: get, create and replace of coordination.k8s.io/v1 Leases
 * with undici (which the populator loads anyway, for the node), authenticated as @kubernetes/client-node would. Each
 * populator pod on Kubernetes loaded that client, about 870 modules and 0.4–0.5 CPU-s a start, for these three
 * requests; lease-access.ts says when this client serves (a kubeconfig it reads fully, or the service account).
 */
import { readFileSync } from 'node:fs';
import { Agent, request } from 'undici';
import { errorMessage } from '../../base/errors.ts';
import { KubeError, reviveMetadata, statusError } from './client.ts';
import type { CallOptions, KubeObject, LeaseKube, ObjectRef } from './client.ts';

/** ApiAccess: where the API server is and how a request shows who it is (each file read again as said below). */
export interface ApiAccess {
  /** the server's URL, without a trailing slash */
  readonly server: string;
  /** the CA, client certificate and key: their text, or a file to read */
  readonly ca?: Material;
  readonly cert?: Material;
  readonly key?: Material;
  /** false: the server's certificate is not checked (insecure-skip-tls-verify) */
  readonly rejectUnauthorized?: boolean;
  readonly servername?: string;
  /** a bearer token: its text, or a file to read (the service account's, rotated by the kubelet) */
  readonly token?: Material;
}

/** Material is a credential's bytes, or the file that holds them. */
export type Material = { readonly data: Buffer } | { readonly file: string };

/**
 * REREAD_MS: how long a credential read from a file is used before it is read again, client-node's and client-go's
 * minute for the token; the TLS files are read as often (client-node read them per request), and when they changed the
 * requests go over a new connection pool.
 */
const REREAD_MS = 60_000;

const LEASE_API = 'coordination.k8s.io/v1';

/** createLeaseClient is the LeaseKube of `access`; each request fails after requestTimeoutMs unanswered. */
export function createLeaseClient(access: ApiAccess, requestTimeoutMs: number): LeaseKube {
  return new LeaseClient(access, requestTimeoutMs);
}

/** Credentials are the files' contents as read at `readAtMs`, and the pool built on them. */
interface Credentials {
  readonly readAtMs: number;
  readonly tls: readonly (Buffer | undefined)[];
  readonly token: string | undefined;
  readonly dispatcher: Agent;
}

class LeaseClient implements LeaseKube {
  readonly #access: ApiAccess;
  readonly #timeoutMs: number;
  #credentials: Credentials | undefined;

  constructor(access: ApiAccess, requestTimeoutMs: number) {
    this.#access = access;
    this.#timeoutMs = requestTimeoutMs;
  }

  async get<T extends KubeObject>(ref: ObjectRef, options?: CallOptions): Promise<T | undefined> {
    const path = leasePath(ref.apiVersion, ref.kind, ref.namespace, ref.name);
    return (await this.#call('GET', path, undefined, options, 'get', [404])) as T | undefined;
  }

  async create<T extends KubeObject>(obj: T, options?: CallOptions): Promise<T> {
    const path = leasePath(obj.apiVersion, obj.kind, obj.metadata.namespace);
    return (await this.#call('POST', path, obj, options, 'create')) as T;
  }

  async replace<T extends KubeObject>(obj: T, options?: CallOptions): Promise<T> {
    const path = leasePath(obj.apiVersion, obj.kind, obj.metadata.namespace, obj.metadata.name);
    return (await this.#call('PUT', path, obj, options, 'replace')) as T;
  }

  /** #call sends one request; an answer of status `absent` is undefined, any other failure a KubeError. */
  async #call(
    method: 'GET' | 'POST' | 'PUT',
    path: string,
    body: KubeObject | undefined,
    options: CallOptions | undefined,
    action: string,
    absent: number[] = [],
  ): Promise<KubeObject | undefined> {
    const timeout = AbortSignal.timeout(this.#timeoutMs);
    const caller = options?.signal;
    let status: number;
    let text: string;
    try {
      // a credential file that cannot be read fails the request, as in client-node (the elector tries again)
      const { dispatcher, token } = this.#current();
      const headers: Record<string, string> = { accept: 'application/json' };
      if (token !== undefined && token !== '') headers.authorization = `Bearer ${token}`;
      if (body !== undefined) headers['content-type'] = 'application/json';
      const res = await request(`${this.#access.server}${path}`, {
        method,
        headers,
        body: body === undefined ? null : JSON.stringify(body),
        signal: caller === undefined ? timeout : AbortSignal.any([timeout, caller]),
        dispatcher,
      });
      status = res.statusCode;
      text = await res.body.text();
    } catch (err) {
      if (timeout.aborted) throw new KubeError(0, 'Timeout', `${action}: no answer within ${this.#timeoutMs} ms`);
      if (caller?.aborted === true)
        throw new KubeError(0, 'Timeout', `${action}: cancelled: ${errorMessage(caller.reason)}`, { cause: err });
      throw new KubeError(0, 'NetworkError', `${action}: ${errorMessage(err)}`, { cause: err });
    }
    if (absent.includes(status)) return undefined;
    if (status < 200 || status > 299) throw statusError(status, text, action);
    return reviveMetadata(JSON.parse(text) as KubeObject);
  }

  /** #current is the credentials to use now: read again once REREAD_MS old, with a new pool if the TLS files changed. */
  #current(): Credentials {
    const now = Date.now();
    const held = this.#credentials;
    if (held !== undefined && now - held.readAtMs < REREAD_MS) return held;
    const { ca, cert, key, rejectUnauthorized, servername } = this.#access;
    const tls = [ca, cert, key].map(bytesOf);
    const token = bytesOf(this.#access.token)?.toString('utf8');
    let dispatcher = held?.dispatcher;
    if (held === undefined || dispatcher === undefined || !tls.every((b, i) => sameBytes(b, held.tls[i]))) {
      const [caBytes, certBytes, keyBytes] = tls;
      dispatcher = new Agent({
        connect: {
          ...(caBytes ? { ca: caBytes } : {}),
          ...(certBytes ? { cert: certBytes } : {}),
          ...(keyBytes ? { key: keyBytes } : {}),
          ...(rejectUnauthorized === undefined ? {} : { rejectUnauthorized }),
          ...(servername === undefined ? {} : { servername }),
        },
      });
      // what runs on the old pool finishes; its connections go
      void held?.dispatcher.close();
    }
    this.#credentials = { readAtMs: now, tls, token, dispatcher };
    return this.#credentials;
  }
}

function sameBytes(a: Buffer | undefined, b: Buffer | undefined): boolean {
  return a === undefined || b === undefined ? a === b : a.equals(b);
}

function bytesOf(material: Material | undefined): Buffer | undefined {
  if (material === undefined) return undefined;
  return 'data' in material ? material.data : readFileSync(material.file);
}

/** leasePath is a Lease's URL path, or (no name) its namespace's collection's; any other kind is refused. */
function leasePath(apiVersion: string, kind: string, namespace: string | undefined, name?: string): string {
  if (apiVersion !== LEASE_API || kind !== 'Lease' || namespace === undefined)
    throw new Error(`the lease client serves namespaced ${LEASE_API} Leases only, not ${apiVersion} ${kind}`);
  const collection = `/apis/${LEASE_API}/namespaces/${encodeURIComponent(namespace)}/leases`;
  return name === undefined ? collection : `${collection}/${encodeURIComponent(name)}`;
}
