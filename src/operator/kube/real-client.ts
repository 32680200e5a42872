/** @module KubeClient over @kubernetes/client-node 2 (undici fetch): generic objects, SSA, merge patches, watches. */
import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash } from 'node:crypto';
import type https from 'node:https';
import {
  ApiException,
  HttpMethod,
  KubeConfig,
  KubernetesObjectApi,
  PatchStrategy,
  Watch,
} from '@kubernetes/client-node';
import type {
  Configuration,
  CoreV1Event,
  KubernetesObject,
  RequestContext,
  ResponseContext,
  SecurityAuthentication,
} from '@kubernetes/client-node';
import type { Dispatcher } from 'undici';
import { KubeError, parseBody, reasonOf, reviveMetadata, statusError } from './client.ts';
import type {
  ApplyOptions,
  CallOptions,
  DeleteOptions,
  KubeClient,
  KubeObject,
  ListOptions,
  ListPage,
  ObjectRef,
  WatchEvent,
  WatchHandle,
  WatchRequest,
} from './client.ts';
import { DEFAULTS } from '../../config/defaults.ts';
import { errorMessage } from '../../base/errors.ts';

/** KubeConfigOptions choose where the cluster credentials come from. */
export interface KubeConfigOptions {
  /** path of a kubeconfig file (the CLI passes $KUBECONFIG); absent: the client's default search, then in-cluster. */
  kubeconfig?: string;
  /** force the in-cluster service account (token, CA and namespace from /var/run/secrets/kubernetes.io). */
  inCluster?: boolean;
  /** kubeconfig context to use instead of the current one. */
  context?: string;
}

/** loadKubeConfig loads credentials in-cluster or from a kubeconfig file. */
export function loadKubeConfig(opts: KubeConfigOptions = {}): KubeConfig {
  const kc = new KubeConfig();
  if (opts.inCluster === true) kc.loadFromCluster();
  else if (opts.kubeconfig !== undefined && opts.kubeconfig !== '') kc.loadFromFile(opts.kubeconfig);
  else kc.loadFromDefault();
  if (opts.context !== undefined) kc.setCurrentContext(opts.context);
  return kc;
}

/** KubeClientOptions tune the real client. */
export interface KubeClientOptions {
  /**
   * requestTimeoutMs bounds every request but the watches (which end on their own inactivity timeout): a request
   * over a half-open connection fails after this long instead of undici's 300 s. Default KUBE_REQUEST_TIMEOUT_MS's.
   */
  requestTimeoutMs?: number;
}

/** createKubeClient builds the real KubeClient for a loaded KubeConfig. */
export function createKubeClient(kc: KubeConfig, options: KubeClientOptions = {}): KubeClient {
  return new RealKubeClient(kc, options.requestTimeoutMs ?? DEFAULTS.KUBE_REQUEST_TIMEOUT_MS);
}

/**
 * callSignal carries a caller's signal (CallOptions) to the request the client library builds deep inside a call:
 * its methods take no signal of their own, and the request context is made only once discovery has resolved the path.
 */
const callSignal = new AsyncLocalStorage<AbortSignal | undefined>();

/**
 * RequestAbortedError is a request ended by its deadline or its caller's signal. Thrown in place of fetch's
 * DOMException, whose read-only message the client library fails to prefix (a TypeError that would hide the cause).
 */
class RequestAbortedError extends Error {
  override readonly name = 'RequestAbortedError';
}

/** boundRequest runs send with a signal that aborts after timeoutMs, or earlier when the caller's (if any) aborts. */
async function boundRequest<T>(ctx: RequestContext, timeoutMs: number, send: () => Promise<T>): Promise<T> {
  const timeout = AbortSignal.timeout(timeoutMs);
  const caller = callSignal.getStore();
  ctx.setSignal(caller === undefined ? timeout : AbortSignal.any([timeout, caller]));
  try {
    return await send();
  } catch (err) {
    if (timeout.aborted) throw new RequestAbortedError(`no answer within ${timeoutMs} ms`, { cause: err });
    if (caller?.aborted === true)
      throw new RequestAbortedError(`cancelled: ${errorMessage(caller.reason)}`, { cause: err });
    throw err;
  }
}

/** withSignal runs fn with `options.signal` as the caller's signal of every request fn makes. */
function withSignal<T>(options: CallOptions | undefined, fn: () => Promise<T>): Promise<T> {
  return callSignal.run(options?.signal, fn);
}

/**
 * RAW_JSON asks ObjectApi for the answer's JSON as sent: the client's own deserializer reads a custom resource list's
 * metadata as ObjectMeta and so drops its `continue` token (client-node 2.0.1), which paginated lists need.
 */
const RAW_JSON = 'mdw:raw-json';

/** RawList is a list answer as the API server sends it. */
interface RawList {
  metadata?: { resourceVersion?: string; continue?: string };
  items?: KubeObject[];
}

/**
 * TLS_OPTIONS are the request options the KubeConfig builds a request's undici Agent from (applySecurityAuthentication
 * in client-node 2.0.1): the CA, the client certificate and key, and how the server is checked.
 */
const TLS_OPTIONS = ['ca', 'cert', 'key', 'pfx', 'passphrase', 'rejectUnauthorized', 'servername'] as const;

/** tlsKeyOf is a digest of the TLS options: two requests with the same one can share a connection. */
function tlsKeyOf(options: https.RequestOptions): string {
  const hash = createHash('sha256');
  for (const name of TLS_OPTIONS) {
    const value: unknown = options[name];
    const bytes = Buffer.isBuffer(value) ? value : Buffer.from(JSON.stringify(value) ?? '-');
    hash.update(`${name} ${bytes.length}\n`).update(bytes);
  }
  return hash.digest('hex');
}

/**
 * PooledAuthentication is the KubeConfig's authentication with one connection pool for the requests of the same TLS
 * material. client-node 2.0.1 gives each request a new undici Agent (applySecurityAuthentication builds one from the
 * TLS options each time), so each request opened a TCP and TLS connection of its own, a handshake on both ends: the
 * operator's Lease renewal every 2 s and each reconcile pass's reads and writes. The credentials a request carries (a
 * bearer token, re-read as the KubeConfig does) are still set per request; the TLS options are read per request too,
 * and when they change (an exec plugin's new client certificate, a rotated certificate file or CA) the request's own
 * Agent becomes the pool and the old pool is closed: what runs on it finishes, and its connections go.
 */
class PooledAuthentication implements SecurityAuthentication {
  readonly #kc: KubeConfig;
  /** the pool, the digest of its TLS options and the number of the request that brought them */
  #pool: { readonly key: string; readonly request: number; readonly dispatcher: Dispatcher | undefined } | undefined;
  #requests = 0;

  constructor(kc: KubeConfig) {
    this.#kc = kc;
  }

  getName(): string {
    return this.#kc.getName();
  }

  async applySecurityAuthentication(ctx: RequestContext): Promise<void> {
    const request = ++this.#requests;
    // read before the request's Agent is built: if they change in between, the Agent has the newer ones and the next
    // request reads those and moves the pool to them
    const options: https.RequestOptions = {};
    await this.#kc.applyToHTTPSOptions(options);
    const key = tlsKeyOf(options);
    await this.#kc.applySecurityAuthentication(ctx);
    const pool = this.#pool;
    // a request that read its options before the pool's did keeps to the pool: its options are not newer
    if (pool === undefined || (key !== pool.key && request > pool.request)) {
      this.#pool = { key, request, dispatcher: ctx.getDispatcher() };
      void pool?.dispatcher?.close();
    }
    const dispatcher = this.#pool?.dispatcher;
    if (dispatcher !== undefined) ctx.setDispatcher(dispatcher);
  }
}

/**
 * pooledConfig is kc with auth's applySecurityAuthentication, for Watch, which reads the cluster and authenticates each
 * watch through its KubeConfig: the watches then share the requests' pool instead of a TCP and TLS connection each,
 * and one that ends leaves its connection to the next. A watch's answer streams for minutes and keeps its connection
 * busy meanwhile (HTTP/1.1) or one stream of it (HTTP/2, which a Go API server chooses), so the pool opens another
 * connection for what comes while every one is busy: undici's Pool has no limit of connections unless one is set, and
 * none is. A pool closed after its TLS material changed lets its watches run to their end (the informer then watches
 * again, over the new pool).
 */
function pooledConfig(kc: KubeConfig, auth: PooledAuthentication): KubeConfig {
  const config = Object.create(kc) as KubeConfig;
  config.applySecurityAuthentication = (ctx) => auth.applySecurityAuthentication(ctx);
  return config;
}

/** ObjectApi adds raw lists and merge patches (main resource and /status) and collection paths to KubernetesObjectApi. */
class ObjectApi extends KubernetesObjectApi {
  #requestTimeoutMs: number = DEFAULTS.KUBE_REQUEST_TIMEOUT_MS;

  static forConfig(kc: KubeConfig, auth: PooledAuthentication, requestTimeoutMs: number): ObjectApi {
    const api = kc.makeApiClient(ObjectApi);
    api.configuration.authMethods.default = auth;
    api.setDefaultNamespace(kc);
    api.#requestTimeoutMs = requestTimeoutMs;
    return api;
  }

  /** every request of this API, discovery included, goes through here: each gets its deadline. */
  protected override requestPromise<T extends KubernetesObject>(
    ctx: RequestContext,
    type?: string,
    options?: Configuration,
  ): Promise<T> {
    return boundRequest(ctx, this.#requestTimeoutMs, () => super.requestPromise<T>(ctx, type, options));
  }

  /** collectionPath is the URL path of a kind's collection (all namespaces when namespace is undefined). */
  async collectionPath(apiVersion: string, kind: string, namespace: string | undefined): Promise<string> {
    return this.specUriPath({ apiVersion, kind, metadata: namespace === undefined ? {} : { namespace } }, 'list');
  }

  /** listPage reads one page of a collection (labelSelector, limit, continue) as raw JSON. */
  async listPage(
    apiVersion: string,
    kind: string,
    namespace: string | undefined,
    options: ListOptions,
  ): Promise<RawList> {
    const ctx = this.configuration.baseServer.makeRequestContext(
      await this.collectionPath(apiVersion, kind, namespace),
      HttpMethod.GET,
    );
    ctx.setHeaderParam('Accept', 'application/json');
    if (options.labelSelector !== undefined) ctx.setQueryParam('labelSelector', options.labelSelector);
    if (options.limit !== undefined) ctx.setQueryParam('limit', String(options.limit));
    if (options.continue !== undefined && options.continue !== '') ctx.setQueryParam('continue', options.continue);
    return this.requestPromise<KubernetesObject>(ctx, RAW_JSON) as Promise<RawList>;
  }

  protected override async processResponse<T extends KubernetesObject>(
    response: ResponseContext,
    type?: string,
  ): Promise<T> {
    const ok = response.httpStatusCode >= 200 && response.httpStatusCode <= 299;
    if (type !== RAW_JSON || !ok) return super.processResponse<T>(response, type);
    return JSON.parse(await response.body.text()) as T;
  }

  /** mergePatch sends body verbatim as application/merge-patch+json (nulls delete), optionally to /status. */
  async mergePatch(ref: ObjectRef, body: unknown, subresource?: 'status'): Promise<KubeObject> {
    const path = await this.specUriPath(specOf(ref), 'patch');
    const ctx = this.configuration.baseServer.makeRequestContext(
      subresource === undefined ? path : `${path}/${subresource}`,
      HttpMethod.PATCH,
    );
    ctx.setHeaderParam('Accept', 'application/json');
    ctx.setHeaderParam('Content-Type', PatchStrategy.MergePatch);
    ctx.setBody(JSON.stringify(body));
    return this.requestPromise<KubeObject & KubernetesObject>(ctx);
  }
}

/** RealKubeClient maps the port onto the API server; every failure becomes a KubeError. */
class RealKubeClient implements KubeClient {
  readonly #objects: ObjectApi;
  readonly #watch: Watch;

  constructor(kc: KubeConfig, requestTimeoutMs: number) {
    const auth = new PooledAuthentication(kc);
    this.#objects = ObjectApi.forConfig(kc, auth, requestTimeoutMs);
    this.#watch = new Watch(pooledConfig(kc, auth));
  }

  async get<T extends KubeObject>(ref: ObjectRef, options?: CallOptions): Promise<T | undefined> {
    try {
      return reviveMetadata(await withSignal(options, () => this.#objects.read<KubeObject>(specOf(ref)))) as T;
    } catch (err) {
      if (statusOf(err) === 404) return undefined;
      throw toKubeError(err, 'get');
    }
  }

  async list<T extends KubeObject>(
    apiVersion: string,
    kind: string,
    namespace?: string,
    options: ListOptions = {},
  ): Promise<ListPage<T>> {
    const res = await this.#objects.listPage(apiVersion, kind, namespace, options).catch((err: unknown) => {
      throw toKubeError(err, 'list');
    });
    // list items carry no apiVersion/kind on the wire; callers expect whole objects
    const items = (res.items ?? []).map((i) => reviveMetadata({ ...i, apiVersion, kind }) as T);
    const page: ListPage<T> = { items, resourceVersion: res.metadata?.resourceVersion ?? '' };
    const next = res.metadata?.continue;
    if (next !== undefined && next !== '') page.continue = next;
    return page;
  }

  async watch<T extends KubeObject>(
    request: WatchRequest,
    onEvent: (e: WatchEvent<T>) => void,
    onDone: (err?: KubeError) => void,
  ): Promise<WatchHandle> {
    const { apiVersion, kind, namespace, resourceVersion, labelSelector } = request;
    const path = await this.#objects.collectionPath(apiVersion, kind, namespace).catch((err: unknown) => {
      throw toKubeError(err, 'watch');
    });
    const state: { finished: boolean; abort?: AbortController } = { finished: false };
    const finish = (err?: KubeError): void => {
      if (state.finished) return;
      state.finished = true;
      state.abort?.abort();
      onDone(err);
    };
    state.abort = await this.#watch.watch(
      path,
      { resourceVersion, allowWatchBookmarks: true, labelSelector },
      (type: string, obj: unknown) => {
        if (state.finished) return;
        if (type === 'ERROR') finish(statusToError(obj));
        else if (type === 'ADDED' || type === 'MODIFIED' || type === 'DELETED' || type === 'BOOKMARK') {
          onEvent({ type, object: reviveMetadata(obj as KubeObject) as T });
        }
      },
      (err: unknown) => finish(watchEndError(err)),
    );
    if (state.finished) state.abort.abort();
    return { stop: () => finish() };
  }

  async apply<T extends KubeObject>(obj: T, fieldManager: string, options: ApplyOptions = {}): Promise<T> {
    const body = { ...obj, metadata: { ...obj.metadata } };
    const force = options.force === true;
    return this.#objects.patch(body, undefined, undefined, fieldManager, force, PatchStrategy.ServerSideApply).then(
      (o) => reviveMetadata(o as KubeObject) as T,
      (err: unknown) => {
        throw toKubeError(err, 'apply');
      },
    );
  }

  async create<T extends KubeObject>(obj: T, options?: CallOptions): Promise<T> {
    return withSignal(options, () => this.#objects.create({ ...obj, metadata: { ...obj.metadata } })).then(
      (o) => reviveMetadata(o as KubeObject) as T,
      (err: unknown) => {
        throw toKubeError(err, 'create');
      },
    );
  }

  async replace<T extends KubeObject>(obj: T, options?: CallOptions): Promise<T> {
    return withSignal(options, () => this.#objects.replace({ ...obj, metadata: { ...obj.metadata } })).then(
      (o) => reviveMetadata(o as KubeObject) as T,
      (err: unknown) => {
        throw toKubeError(err, 'replace');
      },
    );
  }

  async patchStatus<T extends KubeObject>(ref: ObjectRef, status: unknown, resourceVersion?: string): Promise<T> {
    const body = resourceVersion === undefined ? { status } : { metadata: { resourceVersion }, status };
    return this.#objects.mergePatch(ref, body, 'status').then(
      (o) => reviveMetadata(o) as T,
      (err: unknown) => {
        throw toKubeError(err, 'patch status');
      },
    );
  }

  async patchMerge<T extends KubeObject>(ref: ObjectRef, patch: unknown): Promise<T> {
    return this.#objects.mergePatch(ref, patch).then(
      (o) => reviveMetadata(o) as T,
      (err: unknown) => {
        throw toKubeError(err, 'patch');
      },
    );
  }

  async delete(ref: ObjectRef, opts: DeleteOptions = {}): Promise<boolean> {
    try {
      await this.#objects.delete(specOf(ref), undefined, undefined, undefined, undefined, opts.propagationPolicy);
      return true;
    } catch (err) {
      if (statusOf(err) === 404) return false;
      throw toKubeError(err, 'delete');
    }
  }

  async createEvent(event: CoreV1Event): Promise<void> {
    const namespace = event.metadata.namespace ?? event.involvedObject.namespace ?? 'default';
    // through the object API like every other request, so it gets its deadline in the one place
    const body = { apiVersion: 'v1', kind: 'Event', ...event, metadata: { ...event.metadata, namespace } };
    await this.#objects.create(body).catch((err: unknown) => {
      throw toKubeError(err, 'create event');
    });
  }
}

function specOf(ref: ObjectRef): { apiVersion: string; kind: string; metadata: { name: string; namespace?: string } } {
  const metadata = ref.namespace === undefined ? { name: ref.name } : { name: ref.name, namespace: ref.namespace };
  return { apiVersion: ref.apiVersion, kind: ref.kind, metadata };
}

function statusOf(err: unknown): number | undefined {
  return err instanceof ApiException ? err.code : undefined;
}

/** toKubeError keeps the API server's Status reason and message (409 Conflict vs AlreadyExists, 410 Expired …). */
function toKubeError(err: unknown, action: string): KubeError {
  if (err instanceof KubeError) return err;
  if (err instanceof ApiException) return statusError(err.code, err.body, action, err);
  // the request's deadline (requestTimeoutMs) or the caller's signal ended it
  if (err instanceof RequestAbortedError) {
    return new KubeError(0, 'Timeout', `${action}: ${err.message}`, { cause: err });
  }
  // discovery found the group but not the kind: the API server does not serve it (a CRD that is not installed)
  if (err instanceof Error && err.message.startsWith('Unrecognized API version and kind')) {
    return new KubeError(404, 'NotFound', `${action}: ${err.message}`, { cause: err });
  }
  return new KubeError(0, 'NetworkError', `${action}: ${errorMessage(err)}`, {
    cause: err,
  });
}

/** statusToError turns an in-stream ERROR event (a v1 Status) into a KubeError; 410 says "relist". */
function statusToError(obj: unknown): KubeError {
  const s = parseBody(obj);
  const code = typeof s.code === 'number' ? s.code : 500;
  const reason = code === 410 ? 'Gone' : typeof s.reason === 'string' ? s.reason : reasonOf(code);
  return new KubeError(code, reason, typeof s.message === 'string' ? s.message : `watch error ${code}`);
}

/** watchEndError maps the end of a watch: a clean close or the client's inactivity timeout is a normal end. */
function watchEndError(err: unknown): KubeError | undefined {
  if (err === null || err === undefined) return undefined;
  if (err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError')) return undefined;
  const statusCode = (err as { statusCode?: unknown }).statusCode;
  if (typeof statusCode === 'number') {
    return new KubeError(statusCode, reasonOf(statusCode), `watch: HTTP ${statusCode}`, { cause: err });
  }
  return new KubeError(0, 'NetworkError', `watch: ${errorMessage(err)}`, { cause: err });
}
