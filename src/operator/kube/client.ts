/** @module The Kubernetes port: the only surface the operator uses to talk to an API server (real or fake). */
import type { CoreV1Event, V1ObjectMeta } from '@kubernetes/client-node';

/** ObjectRef names one object; namespace is absent for cluster-scoped kinds. */
export interface ObjectRef {
  apiVersion: string;
  kind: string;
  namespace?: string;
  name: string;
}

/** KubeObject is any Kubernetes object: typed metadata, everything else free-form. */
export interface KubeObject {
  apiVersion: string;
  kind: string;
  metadata: V1ObjectMeta;
  [k: string]: unknown;
}

/** WatchEvent is one line of a watch stream (ERROR lines are turned into onDone(KubeError)). */
export type WatchEvent<T> = { type: 'ADDED' | 'MODIFIED' | 'DELETED'; object: T } | { type: 'BOOKMARK'; object: T };

/** DeleteOptions selects the cascade; the default, like the API server's, is Background. */
export interface DeleteOptions {
  propagationPolicy?: 'Foreground' | 'Background' | 'Orphan';
}

/** ApplyOptions: force takes fields owned by another field manager (otherwise such a conflict is a 409). */
export interface ApplyOptions {
  force?: boolean;
}

/**
 * ListOptions narrow a list: a label selector, and a page of at most `limit` objects continuing after the page that
 * returned `continue` (every page of one list is the same snapshot; an expired token is a 410 Gone).
 */
export interface ListOptions {
  labelSelector?: string;
  limit?: number;
  continue?: string;
}

/** ListPage is one answer to a list: its objects, the snapshot's resourceVersion and, when more follow, `continue`. */
export interface ListPage<T> {
  items: T[];
  resourceVersion: string;
  continue?: string;
}

/**
 * WatchRequest names what a watch streams: a kind's objects (in a namespace, or all when it is undefined) after
 * resourceVersion, narrowed by a label selector (objects that start or stop matching it arrive as ADDED or DELETED).
 */
export interface WatchRequest {
  readonly apiVersion: string;
  readonly kind: string;
  readonly namespace?: string | undefined;
  readonly resourceVersion: string;
  readonly labelSelector?: string | undefined;
}

/**
 * CallOptions bound one request: once `signal` aborts, the request is cancelled and fails (the leader elector bounds
 * each Lease attempt by its renew deadline this way, as client-go does).
 */
export interface CallOptions {
  signal?: AbortSignal;
}

/** WatchHandle stops a running watch; onDone is then called once without an error. */
export interface WatchHandle {
  stop(): void;
}

/** KubeClient is the port: every read and write of the operator and the admin CLI goes through it. */
export interface KubeClient {
  /** get reads one object; undefined when it does not exist (404). */
  get<T extends KubeObject>(ref: ObjectRef, options?: CallOptions): Promise<T | undefined>;
  /** list reads one page of a kind's objects (in a namespace, or all when namespace is undefined); see listAll. */
  list<T extends KubeObject>(
    apiVersion: string,
    kind: string,
    namespace?: string,
    options?: ListOptions,
  ): Promise<ListPage<T>>;
  /** watch streams changes after resourceVersion; 410 Gone (and any other end) arrives through onDone(err). */
  watch<T extends KubeObject>(
    request: WatchRequest,
    onEvent: (e: WatchEvent<T>) => void,
    onDone: (err?: KubeError) => void,
  ): Promise<WatchHandle>;
  /**
   * apply is server-side apply under fieldManager; it creates or updates. Without `force`, a field another manager
   * owns with a different value is a KubeError 409 Conflict.
   */
  apply<T extends KubeObject>(obj: T, fieldManager: string, options?: ApplyOptions): Promise<T>;
  /** create fails with KubeError 409 AlreadyExists when the name is taken. */
  create<T extends KubeObject>(obj: T, options?: CallOptions): Promise<T>;
  /** replace is an optimistic PUT: a stale metadata.resourceVersion gives KubeError 409 Conflict. */
  replace<T extends KubeObject>(obj: T, options?: CallOptions): Promise<T>;
  /** patchStatus merge-patches the status subresource only; resourceVersion, when given, is a precondition. */
  patchStatus<T extends KubeObject>(ref: ObjectRef, status: unknown, resourceVersion?: string): Promise<T>;
  /** patchMerge applies a JSON merge patch (RFC 7386) to the main resource. */
  patchMerge<T extends KubeObject>(ref: ObjectRef, patch: unknown): Promise<T>;
  /** delete removes an object (or marks it when finalizers remain); false when it was absent. */
  delete(ref: ObjectRef, opts?: DeleteOptions): Promise<boolean>;
  /** createEvent records a core/v1 Event (in event.metadata.namespace). */
  createEvent(event: CoreV1Event): Promise<void>;
}

/** LeaseKube is the part of the port a LeaderElector uses (lease-client.ts serves it alone, for Leases). */
export type LeaseKube = Pick<KubeClient, 'get' | 'create' | 'replace'>;

/** KubeError is an API failure with its HTTP status and the API server's reason. */
export class KubeError extends Error {
  override readonly name = 'KubeError';
  readonly status: number;
  /** reason: 'NotFound' | 'Conflict' | 'AlreadyExists' | 'Gone' | 'Invalid' | 'Forbidden' | 'Timeout' | … */
  readonly reason: string;

  constructor(status: number, reason: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.status = status;
    this.reason = reason;
  }
}

const REASONS: Readonly<Record<number, string>> = {
  400: 'BadRequest',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'NotFound',
  405: 'MethodNotAllowed',
  409: 'Conflict',
  410: 'Gone',
  415: 'UnsupportedMediaType',
  422: 'Invalid',
  429: 'TooManyRequests',
  500: 'InternalError',
  503: 'ServiceUnavailable',
  504: 'Timeout',
};

/** reasonOf is the API server's reason for an HTTP status, when its Status gives none. */
export function reasonOf(status: number): string {
  return REASONS[status] ?? 'Unknown';
}

/**
 * statusError is the KubeError of an answer with HTTP status `status` and body `body` (a v1 Status, as text or parsed):
 * its reason and message kept (409 Conflict vs AlreadyExists, 410 Expired …), `action` said first.
 */
export function statusError(status: number, body: unknown, action: string, cause?: unknown): KubeError {
  const s = parseBody(body);
  const reason = typeof s.reason === 'string' && s.reason !== '' ? s.reason : reasonOf(status);
  const message = typeof s.message === 'string' ? s.message : `HTTP ${status}`;
  return new KubeError(status, reason, `${action}: ${message}`, { cause });
}

/** parseBody reads an answer's body (JSON text or already parsed) as an object; {} when it is none. */
export function parseBody(body: unknown): Record<string, unknown> {
  if (typeof body === 'string') {
    try {
      const parsed: unknown = JSON.parse(body);
      return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : {};
    } catch {
      return {};
    }
  }
  return typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
}

/** reviveMetadata makes metadata timestamps Dates whatever path the object came by (typed read, list, watch). */
export function reviveMetadata(obj: KubeObject): KubeObject {
  const m = obj.metadata as Record<string, unknown> | undefined;
  if (m === undefined) return obj;
  for (const k of ['creationTimestamp', 'deletionTimestamp']) {
    if (typeof m[k] === 'string') m[k] = new Date(m[k]);
  }
  return obj;
}

/** isKubeError tells whether err is a KubeError with the given status (any status when omitted). */
export function isKubeError(err: unknown, status?: number): err is KubeError {
  return err instanceof KubeError && (status === undefined || err.status === status);
}

/** refOf gives the ObjectRef that names obj. */
export function refOf(obj: KubeObject): ObjectRef {
  const ref: ObjectRef = { apiVersion: obj.apiVersion, kind: obj.kind, name: obj.metadata.name ?? '' };
  if (obj.metadata.namespace !== undefined) ref.namespace = obj.metadata.namespace;
  return ref;
}

/** describeRef is the human form of a ref for messages and logs: kind namespace/name. */
export function describeRef(ref: ObjectRef): string {
  return `${ref.kind} ${ref.namespace === undefined ? '' : `${ref.namespace}/`}${ref.name}`;
}
