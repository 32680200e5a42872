/** @module FakeKube: an in-memory API server with the semantics the operator relies on, for tests. */
import type { CoreV1Event } from '@kubernetes/client-node';
import { KubeError } from './client.ts';
import type {
  ApplyOptions,
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
import {
  deploymentReadyStatus,
  jobFailedStatus,
  jobPodOf,
  jobSucceededStatus,
  podFailedStatus,
  podSucceededStatus,
} from './fake-controllers.ts';
import type { Ownership } from './fake-fields.ts';
import { DEFAULT_KINDS_WITHOUT_STATUS, groupOf, isClusterScoped, keyOrder, refOf } from './fake-keys.ts';
import { CLIENT_MANAGER, CONTROLLER_MANAGER, FakeStore } from './fake-store.ts';
import { copyJson, isPlainObject, mergePatch } from './merge.ts';
import { decodeBuiltIn } from './fake-decode.ts';
import { admitCreate, validateEvent } from './fake-admission.ts';
import { FailureRules } from './fake-failures.ts';
import type { FailureRule, FakeVerb } from './fake-failures.ts';
import { pageOf, parseToken } from './fake-page.ts';
import { writeScale } from './fake-scale.ts';
import { matchesLabels, parseLabelSelector } from './selector.ts';

/** FakeWrite is one recorded write call; changed is false when the API server would persist nothing. */
export interface FakeWrite {
  verb: FakeVerb;
  ref: ObjectRef;
  changed: boolean;
  fieldManager?: string;
}

/** FakeKubeOptions tune the fake; `now` is the clock for timestamps. */
export interface FakeKubeOptions {
  now?: () => Date;
  /** kinds WITHOUT a status subresource (their status is written like any field). */
  kindsWithoutStatus?: Iterable<string>;
  /** CustomResourceDefinitions installed from the start: their kinds are pruned, defaulted and validated. */
  crds?: Iterable<KubeObject>;
}

/** FakeKube implements KubeClient in memory, records writes and Events, and offers hooks to play other controllers. */
export class FakeKube implements KubeClient {
  /** writes lists every write call made through the KubeClient interface, in order. */
  readonly writes: FakeWrite[] = [];
  /** events lists every Event created through the KubeClient interface, in order. */
  readonly events: CoreV1Event[] = [];
  readonly #store: FakeStore;
  readonly #now: () => Date;
  readonly #failures = new FailureRules();

  constructor(opts: FakeKubeOptions = {}) {
    this.#now = opts.now ?? (() => new Date());
    this.#store = new FakeStore(this.#now, opts.kindsWithoutStatus ?? DEFAULT_KINDS_WITHOUT_STATUS);
    for (const crd of opts.crds ?? []) this.#store.create(copyJson(crd), CONTROLLER_MANAGER);
  }

  async get<T extends KubeObject>(ref: ObjectRef): Promise<T | undefined> {
    this.#failures.check('get', ref);
    return this.peek<T>(ref);
  }

  /**
   * list pages as the API server does: at most `limit` objects in namespace/name order, and a `continue` token while
   * more follow; every page of one list is the snapshot at the first page's resourceVersion, and a token older than
   * the compacted history is a 410 Gone.
   */
  async list<T extends KubeObject>(
    apiVersion: string,
    kind: string,
    namespace?: string,
    options: ListOptions = {},
  ): Promise<ListPage<T>> {
    this.#failures.check('list', { apiVersion, kind, name: '' });
    const reqs = parseLabelSelector(options.labelSelector);
    const token = options.continue === undefined || options.continue === '' ? undefined : parseToken(options.continue);
    const rv = token?.rv ?? this.#store.rv;
    const all = (
      token === undefined
        ? this.objectsOf<T>(apiVersion, kind, namespace)
        : this.#store.objectsAt<T>(rv, apiVersion, kind, namespace)
    ).filter((o) => matchesLabels(o.metadata.labels, reqs) && (token === undefined || keyOrder(o) > token.after));
    return pageOf(all, options.limit ?? 0, rv);
  }

  async watch<T extends KubeObject>(
    request: WatchRequest,
    onEvent: (e: WatchEvent<T>) => void,
    onDone: (err?: KubeError) => void,
  ): Promise<WatchHandle> {
    const { apiVersion, kind, namespace, resourceVersion } = request;
    this.#failures.check('watch', { apiVersion, kind, name: '' });
    const scoped = isClusterScoped(kind) ? undefined : namespace;
    const selector = parseLabelSelector(request.labelSelector);
    const fresh = resourceVersion === '' || resourceVersion === '0';
    const initial = this.objectsOf(apiVersion, kind, namespace).filter((o) =>
      matchesLabels(o.metadata.labels, selector),
    );
    const from = fresh ? { initial } : Number(resourceVersion);
    if (typeof from === 'number' && !Number.isSafeInteger(from)) {
      throw new KubeError(400, 'BadRequest', `invalid resourceVersion "${resourceVersion}"`);
    }
    return this.#store.hub.open(
      { group: groupOf(apiVersion), kind, namespace: scoped, selector },
      from,
      onEvent as (e: WatchEvent<KubeObject>) => void,
      onDone,
    );
  }

  async apply<T extends KubeObject>(obj: T, fieldManager: string, options: ApplyOptions = {}): Promise<T> {
    const ref = refOf(obj);
    this.#failures.check('apply', ref);
    const before = this.#store.find(ref)?.metadata.resourceVersion;
    if (before === undefined) this.#admitCreate(ref);
    const result = this.#store.apply(decodeBuiltIn(obj), fieldManager, options.force === true);
    this.#record('apply', ref, result.metadata.resourceVersion !== before, fieldManager);
    return this.#store.withManagedFields(result) as T;
  }

  async create<T extends KubeObject>(obj: T): Promise<T> {
    this.#failures.check('create', refOf(obj));
    this.#admitCreate(refOf(obj));
    const created = this.#store.create(copyJson(decodeBuiltIn(obj)));
    this.#record('create', refOf(created), true);
    return this.#store.withManagedFields(created) as T;
  }

  async replace<T extends KubeObject>(obj: T): Promise<T> {
    const ref = refOf(obj);
    this.#failures.check('replace', ref);
    const live = this.#store.mustFind(ref);
    this.#store.precondition(live, obj.metadata.resourceVersion);
    return this.#recorded('replace', ref, live, () =>
      this.#store.update(live, copyJson(decodeBuiltIn(obj)), 'main', CLIENT_MANAGER),
    ) as T;
  }

  async patchStatus<T extends KubeObject>(ref: ObjectRef, status: unknown, resourceVersion?: string): Promise<T> {
    this.#failures.check('patchStatus', ref);
    const live = this.#store.mustFind(ref);
    return this.#recorded('patchStatus', ref, live, () => this.#store.mergeStatus(ref, status, resourceVersion)) as T;
  }

  async patchMerge<T extends KubeObject>(ref: ObjectRef, patch: unknown): Promise<T> {
    this.#failures.check('patchMerge', ref);
    const live = this.#store.mustFind(ref);
    if (!isPlainObject(patch)) throw new KubeError(400, 'BadRequest', 'a merge patch must be a JSON object');
    this.#store.precondition(live, (patch.metadata as Record<string, unknown> | undefined)?.resourceVersion);
    return this.#recorded('patchMerge', ref, live, () =>
      this.#store.update(live, patchedAsSent(live, patch), 'main', CLIENT_MANAGER),
    ) as T;
  }

  async delete(ref: ObjectRef, opts: DeleteOptions = {}): Promise<boolean> {
    this.#failures.check('delete', ref);
    const live = this.#store.find(ref);
    if (live === undefined) return false;
    const before = this.#store.rv;
    this.#store.delete(live, opts.propagationPolicy ?? 'Background');
    this.#record('delete', refOf(live), this.#store.rv !== before);
    return true;
  }

  async createEvent(event: CoreV1Event): Promise<void> {
    this.#failures.check('createEvent', {
      apiVersion: 'v1',
      kind: 'Event',
      namespace: event.metadata.namespace,
      name: event.metadata.name ?? '',
    });
    validateEvent(event);
    this.#admitCreate({
      apiVersion: 'v1',
      kind: 'Event',
      namespace: event.metadata.namespace,
      name: event.metadata.name ?? '',
    });
    this.events.push(copyJson(event));
  }

  // ---- test hooks (not recorded in writes) ----

  /** resourceVersion is the current global resourceVersion of the fake's store. */
  get resourceVersion(): string {
    return String(this.#store.rv);
  }

  /** openWatches counts open watch streams (stalled ones included). */
  get openWatches(): number {
    return this.#store.hub.openStreams;
  }

  /** objectsOf is a synchronous snapshot of every object of a kind (all namespaces when namespace is undefined). */
  objectsOf<T extends KubeObject>(apiVersion: string, kind: string, namespace?: string): T[] {
    return this.#store.objectsOf<T>(apiVersion, kind, namespace);
  }

  /** peek is a synchronous get for assertions. */
  peek<T extends KubeObject>(ref: ObjectRef): T | undefined {
    const obj = this.#store.find(ref);
    return obj === undefined ? undefined : (this.#store.withManagedFields(obj) as T);
  }

  /** setStatus merges status as another controller would (a Job controller, a Deployment controller). */
  setStatus(ref: ObjectRef, status: unknown): KubeObject {
    const live = this.#store.mustFind(ref);
    const patched = { ...live, status: mergePatch(live.status, status) };
    return this.#store.update(live, patched, 'status', CONTROLLER_MANAGER);
  }

  /**
   * userPatch merge-patches the main resource as a user would with `kubectl edit` (an update: the fields it changes
   * become `manager`'s, so the next apply of their former manager conflicts).
   */
  userPatch(ref: ObjectRef, patch: unknown, manager = 'kubectl-edit'): KubeObject {
    const live = this.#store.mustFind(ref);
    return this.#store.update(live, patchedAsSent(live, patch), 'main', manager);
  }

  /**
   * legacyPatch merge-patches as userPatch does, past the CRD's schema and rules: what an API server whose CRD was
   * older (without a rule the operator enforces today) let into the store, and the operator must still refuse.
   */
  legacyPatch(ref: ObjectRef, patch: unknown, manager = 'kubectl-edit'): KubeObject {
    return this.#store.withoutAdmission(() => this.userPatch(ref, patch, manager));
  }

  /**
   * scale writes the scale subresource as `kubectl scale` or a HorizontalPodAutoscaler does (Kubernetes
   * documentation, "Extend the Kubernetes API with CustomResourceDefinitions", "Scale subresource"): the replicas
   * path the CRD names (`.spec.replicas` of the built-in workloads); 404 for a kind without one. It returns the Scale.
   */
  scale(ref: ObjectRef, replicas: number, manager = 'kubectl-scale'): KubeObject {
    return writeScale(this.#store, ref, replicas, manager);
  }

  /** managersOf is what each field manager owns of the object at ref (the source of its metadata.managedFields). */
  managersOf(ref: ObjectRef): ReadonlyMap<string, Ownership> {
    return this.#store.managersOf(ref);
  }

  /**
   * completeJob marks a Job as succeeded, as the Job controller does. With a terminationMessage it also leaves the
   * Job's pod, labelled with the Job's name, whose container terminated with that message (as the kubelet records).
   */
  completeJob(ref: ObjectRef, terminationMessage?: string): KubeObject {
    this.#admitPodsOf(ref);
    const at = this.#now();
    if (terminationMessage !== undefined) {
      const pod = this.#store.create(jobPodOf(this.#store.mustFind(ref)), CONTROLLER_MANAGER);
      this.setStatus(refOf(pod), podSucceededStatus(at, terminationMessage));
    }
    return this.setStatus(ref, jobSucceededStatus(at));
  }

  /** #admitCreate throws what the API server's admission answers a create of ref (a namespace being deleted). */
  #admitCreate(ref: ObjectRef): void {
    const namespace =
      ref.namespace === undefined
        ? undefined
        : this.#store.find({ apiVersion: 'v1', kind: 'Namespace', name: ref.namespace });
    admitCreate(ref, namespace);
  }

  /**
   * #admitPodsOf throws what the API server's ServiceAccount admission answers the Job or ReplicaSet controller that
   * creates a pod of the workload at ref naming a ServiceAccount that does not exist: no pod can start, ever.
   */
  #admitPodsOf(ref: ObjectRef): void {
    const workload = this.#store.mustFind(ref) as KubeObject & {
      spec?: { template?: { spec?: { serviceAccountName?: string } } };
    };
    const account = workload.spec?.template?.spec?.serviceAccountName ?? 'default';
    const namespace = refOf(ref).namespace;
    if (
      account === 'default' ||
      this.#store.find({ apiVersion: 'v1', kind: 'ServiceAccount', namespace, name: account })
    )
      return;
    throw new KubeError(
      403,
      'Forbidden',
      `pods of ${ref.name} are forbidden: error looking up service account ${namespace}/${account}: not found`,
    );
  }

  /**
   * failJob marks a Job as failed, as the Job controller does after its backoff limit. With `pod` it also leaves the
   * Job's failed pod, whose container (`mdw`, or an init container's name) ended with that termination message.
   */
  failJob(
    ref: ObjectRef,
    message = 'BackoffLimitExceeded',
    pod?: { readonly terminationMessage: string; readonly container?: string },
  ): KubeObject {
    if (pod !== undefined) {
      const created = this.#store.create(jobPodOf(this.#store.mustFind(ref)), CONTROLLER_MANAGER);
      this.setStatus(refOf(created), podFailedStatus(this.#now(), pod.terminationMessage, pod.container));
    }
    return this.setStatus(ref, jobFailedStatus(this.#now(), message));
  }

  /** markDeploymentReady makes a Deployment report `ready` (default: spec.replicas) ready, available replicas. */
  markDeploymentReady(ref: ObjectRef, ready?: number): KubeObject {
    this.#admitPodsOf(ref);
    return this.setStatus(ref, deploymentReadyStatus(this.#store.mustFind(ref), ready));
  }

  /** failOn makes matching calls throw rule.error (once by default): a crash or an API error at that step. */
  failOn(rule: FailureRule): void {
    this.#failures.add(rule);
  }

  /** clearFailures removes every failure rule. */
  clearFailures(): void {
    this.#failures.clear();
  }

  /** clearRecords empties writes and events (to assert on one phase of a test). */
  clearRecords(): void {
    this.writes.length = 0;
    this.events.length = 0;
  }

  /** compact forgets the watch history up to now: watches from an older resourceVersion get 410 Gone. */
  compact(): void {
    this.#store.hub.compact(this.#store.rv);
  }

  /** stallWatches silences every open watch without ending it (a dead connection). */
  stallWatches(): void {
    this.#store.hub.stall();
  }

  /** endWatches closes every open watch, with err (e.g. 410 Gone) or as a normal server-side timeout. */
  endWatches(err?: KubeError): void {
    this.#store.hub.endAll(err);
  }

  #recorded(verb: FakeVerb, ref: ObjectRef, live: KubeObject, write: () => KubeObject): KubeObject {
    const updated = write();
    this.#record(verb, ref, updated !== live);
    return this.#store.withManagedFields(updated);
  }

  #record(verb: FakeVerb, ref: ObjectRef, changed: boolean, fieldManager?: string): void {
    this.writes.push(fieldManager === undefined ? { verb, ref, changed } : { verb, ref, changed, fieldManager });
  }
}

/** patchedAsSent is live merge-patched with patch as it travels (its JSON), then decoded as the API server would. */
function patchedAsSent(live: KubeObject, patch: unknown): KubeObject {
  return decodeBuiltIn(mergePatch(live, JSON.parse(JSON.stringify(patch))) as KubeObject);
}
