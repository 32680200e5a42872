/** @module FakeKube: an in-memory API server with the semantics the operator relies on, for tests. */
import { randomUUID } from 'node:crypto';
import type { CoreV1Event, V1OwnerReference } from '@kubernetes/client-node';
import { KubeError, describeRef } from './client.ts';
import type { DeleteOptions, KubeClient, KubeObject, ObjectRef, WatchEvent, WatchHandle } from './client.ts';
import { WatchHub } from './fake-watch.ts';
import { applyMerge, canonicalJson, isPlainObject, mergePatch } from './merge.ts';
import type { PlainObject } from './merge.ts';
import { matchesLabels, parseLabelSelector } from './selector.ts';

/** FakeVerb names every KubeClient call the fake can record or fail. */
export type FakeVerb = 'get' | 'list' | 'watch' | 'apply' | 'create' | 'replace' | 'patchStatus' | 'patchMerge'
  | 'delete' | 'createEvent';

/** FakeWrite is one recorded write call; changed is false when the API server would persist nothing. */
export interface FakeWrite {
  verb: FakeVerb;
  ref: ObjectRef;
  changed: boolean;
  fieldManager?: string;
}

/** FailureRule makes matching calls throw error, `times` times (Infinity: until cleared). */
export interface FailureRule {
  verb?: FakeVerb;
  kind?: string;
  name?: string;
  error: KubeError;
  times?: number;
}

/** FakeKubeOptions tune the fake; `now` is the clock for timestamps. */
export interface FakeKubeOptions {
  now?: () => Date;
  /** kinds WITHOUT a status subresource (their status is written like any field). */
  kindsWithoutStatus?: Iterable<string>;
}

const CLUSTER_SCOPED = new Set(['Namespace', 'Node', 'PersistentVolume', 'CustomResourceDefinition', 'ClusterRole',
  'ClusterRoleBinding', 'StorageClass', 'PriorityClass', 'APIService', 'ValidatingWebhookConfiguration',
  'MutatingWebhookConfiguration']);
const DEFAULT_KINDS_WITHOUT_STATUS = ['ConfigMap', 'Secret', 'ServiceAccount', 'Role', 'RoleBinding', 'ClusterRole',
  'ClusterRoleBinding', 'Lease', 'Event', 'Endpoints', 'EndpointSlice', 'StorageClass', 'PriorityClass'];

/** FakeKube implements KubeClient in memory, records writes and Events, and offers hooks to play other controllers. */
export class FakeKube implements KubeClient {
  /** writes lists every write call made through the KubeClient interface, in order. */
  readonly writes: FakeWrite[] = [];
  /** events lists every Event created through the KubeClient interface, in order. */
  readonly events: CoreV1Event[] = [];
  readonly #store = new Map<string, KubeObject>();
  readonly #applied = new Map<string, PlainObject>();
  readonly #hub = new WatchHub();
  readonly #noStatus: Set<string>;
  readonly #now: () => Date;
  #rv = 100; // real servers never hand out "0" (it means "any version" to a watch)
  #failures: Array<FailureRule & { times: number }> = [];

  constructor(opts: FakeKubeOptions = {}) {
    this.#now = opts.now ?? (() => new Date());
    this.#noStatus = new Set(opts.kindsWithoutStatus ?? DEFAULT_KINDS_WITHOUT_STATUS);
  }

  async get<T extends KubeObject>(ref: ObjectRef): Promise<T | undefined> {
    this.#check('get', ref);
    const obj = this.#store.get(this.#key(ref));
    return obj === undefined ? undefined : (structuredClone(obj) as T);
  }

  async list<T extends KubeObject>(apiVersion: string, kind: string, namespace?: string, labelSelector?: string):
    Promise<{ items: T[]; resourceVersion: string }> {
    this.#check('list', { apiVersion, kind, name: '' });
    const reqs = parseLabelSelector(labelSelector);
    const items = this.objectsOf<T>(apiVersion, kind, namespace).filter((o) => matchesLabels(o.metadata.labels, reqs));
    return { items, resourceVersion: String(this.#rv) };
  }

  async watch<T extends KubeObject>(apiVersion: string, kind: string, namespace: string | undefined,
    resourceVersion: string, onEvent: (e: WatchEvent<T>) => void, onDone: (err?: KubeError) => void,
  ): Promise<WatchHandle> {
    this.#check('watch', { apiVersion, kind, name: '' });
    const filter = { group: groupOf(apiVersion), kind, namespace: CLUSTER_SCOPED.has(kind) ? undefined : namespace };
    const fresh = resourceVersion === '' || resourceVersion === '0';
    const from = fresh ? { initial: this.objectsOf(apiVersion, kind, namespace) } : Number(resourceVersion);
    if (typeof from === 'number' && !Number.isSafeInteger(from)) {
      throw new KubeError(400, 'BadRequest', `invalid resourceVersion "${resourceVersion}"`);
    }
    return this.#hub.open(filter, from, onEvent as (e: WatchEvent<KubeObject>) => void, onDone);
  }

  async apply<T extends KubeObject>(obj: T, fieldManager: string): Promise<T> {
    const ref = this.#ref(obj);
    this.#check('apply', ref);
    if (fieldManager === '') throw new KubeError(422, 'Invalid', 'fieldManager is required for apply');
    const config = this.#withoutStatusIfSubresource(structuredClone(obj) as PlainObject, ref.kind);
    const live = this.#store.get(this.#key(ref));
    const managedKey = `${this.#key(ref)}|${fieldManager}`;
    let result: KubeObject;
    if (live === undefined) {
      result = this.#create(config as KubeObject, ref);
      this.#record('apply', ref, true, fieldManager);
    } else {
      this.#precondition(live, (config.metadata as PlainObject | undefined)?.resourceVersion);
      const next = applyMerge(live, this.#applied.get(managedKey), config) as KubeObject;
      const before = live.metadata.resourceVersion;
      result = this.#update(live, next, 'main');
      this.#record('apply', ref, result.metadata.resourceVersion !== before, fieldManager);
    }
    this.#applied.set(managedKey, config);
    return structuredClone(result) as T;
  }

  async create<T extends KubeObject>(obj: T): Promise<T> {
    const ref = this.#ref(obj);
    this.#check('create', ref);
    const created = this.#create(structuredClone(obj), ref);
    this.#record('create', this.#ref(created), true);
    return structuredClone(created) as T;
  }

  async replace<T extends KubeObject>(obj: T): Promise<T> {
    const ref = this.#ref(obj);
    this.#check('replace', ref);
    const live = this.#mustGet(ref);
    this.#precondition(live, obj.metadata.resourceVersion);
    return this.#recordUpdate('replace', ref, live, structuredClone(obj), 'main') as T;
  }

  async patchStatus<T extends KubeObject>(ref: ObjectRef, status: unknown, resourceVersion?: string): Promise<T> {
    this.#check('patchStatus', ref);
    const live = this.#mustGet(ref);
    if (this.#noStatus.has(ref.kind)) throw new KubeError(404, 'NotFound', `${ref.kind} has no status subresource`);
    this.#precondition(live, resourceVersion);
    const next = { ...structuredClone(live), status: mergePatch(live.status, status) };
    return this.#recordUpdate('patchStatus', ref, live, next, 'status') as T;
  }

  async patchMerge<T extends KubeObject>(ref: ObjectRef, patch: unknown): Promise<T> {
    this.#check('patchMerge', ref);
    const live = this.#mustGet(ref);
    if (!isPlainObject(patch)) throw new KubeError(400, 'BadRequest', 'a merge patch must be a JSON object');
    this.#precondition(live, (patch.metadata as PlainObject | undefined)?.resourceVersion);
    return this.#recordUpdate('patchMerge', ref, live, mergePatch(live, patch) as KubeObject, 'main') as T;
  }

  async delete(ref: ObjectRef, opts: DeleteOptions = {}): Promise<boolean> {
    this.#check('delete', ref);
    const live = this.#store.get(this.#key(ref));
    if (live === undefined) return false;
    const before = this.#rv;
    this.#delete(live, opts.propagationPolicy ?? 'Background');
    this.#record('delete', this.#ref(live), this.#rv !== before);
    return true;
  }

  async createEvent(event: CoreV1Event): Promise<void> {
    this.#check('createEvent', { apiVersion: 'v1', kind: 'Event', namespace: event.metadata.namespace,
      name: event.metadata.name ?? '' });
    if (event.involvedObject.name === undefined || event.reason === undefined) {
      throw new KubeError(422, 'Invalid', 'an Event needs involvedObject.name and reason');
    }
    this.events.push(structuredClone(event));
  }

  // ---- test hooks (not recorded in writes) ----

  /** resourceVersion is the current global resourceVersion of the fake's store. */
  get resourceVersion(): string {
    return String(this.#rv);
  }

  /** openWatches counts open watch streams (stalled ones included). */
  get openWatches(): number {
    return this.#hub.openStreams;
  }

  /** objectsOf is a synchronous snapshot of every object of a kind (all namespaces when namespace is undefined). */
  objectsOf<T extends KubeObject>(apiVersion: string, kind: string, namespace?: string): T[] {
    const group = groupOf(apiVersion);
    return [...this.#store.values()]
      .filter((o) => groupOf(o.apiVersion) === group && o.kind === kind)
      .filter((o) => namespace === undefined || CLUSTER_SCOPED.has(kind) || o.metadata.namespace === namespace)
      .sort((a, b) => keyOrder(a).localeCompare(keyOrder(b)))
      .map((o) => structuredClone(o) as T);
  }

  /** peek is a synchronous get for assertions. */
  peek<T extends KubeObject>(ref: ObjectRef): T | undefined {
    const obj = this.#store.get(this.#key(ref));
    return obj === undefined ? undefined : (structuredClone(obj) as T);
  }

  /** setStatus merges status as another controller would (a Job controller, a Deployment controller). */
  setStatus(ref: ObjectRef, status: unknown): KubeObject {
    const live = this.#mustGet(ref);
    return this.#update(live, { ...structuredClone(live), status: mergePatch(live.status, status) }, 'status');
  }

  /** userPatch merge-patches the main resource as a user (kubectl) would. */
  userPatch(ref: ObjectRef, patch: unknown): KubeObject {
    const live = this.#mustGet(ref);
    return this.#update(live, mergePatch(live, patch) as KubeObject, 'main');
  }

  /** completeJob marks a Job as succeeded, as the Job controller does. */
  completeJob(ref: ObjectRef): KubeObject {
    const at = this.#now();
    return this.setStatus(ref, { succeeded: 1, active: 0, startTime: at, completionTime: at,
      conditions: [{ type: 'Complete', status: 'True', lastTransitionTime: at, lastProbeTime: at }] });
  }

  /** failJob marks a Job as failed, as the Job controller does after its backoff limit. */
  failJob(ref: ObjectRef, message = 'BackoffLimitExceeded'): KubeObject {
    const at = this.#now();
    return this.setStatus(ref, { failed: 1, active: 0, startTime: at, conditions: [{ type: 'Failed', status: 'True',
      reason: 'BackoffLimitExceeded', message, lastTransitionTime: at, lastProbeTime: at }] });
  }

  /** markDeploymentReady makes a Deployment report `ready` (default: spec.replicas) ready, available replicas. */
  markDeploymentReady(ref: ObjectRef, ready?: number): KubeObject {
    const live = this.#mustGet(ref);
    const spec = (live.spec ?? {}) as { replicas?: number };
    const replicas = spec.replicas ?? 1;
    const n = ready ?? replicas;
    return this.setStatus(ref, { observedGeneration: live.metadata.generation, replicas, updatedReplicas: replicas,
      readyReplicas: n, availableReplicas: n, conditions: [{ type: 'Available', status: n >= replicas ? 'True' : 'False',
        reason: n >= replicas ? 'MinimumReplicasAvailable' : 'MinimumReplicasUnavailable' }] });
  }

  /** failOn makes matching calls throw rule.error (once by default): a crash or an API error at that step. */
  failOn(rule: FailureRule): void {
    this.#failures.push({ ...rule, times: rule.times ?? 1 });
  }

  /** clearFailures removes every failure rule. */
  clearFailures(): void {
    this.#failures = [];
  }

  /** clearRecords empties writes and events (to assert on one phase of a test). */
  clearRecords(): void {
    this.writes.length = 0;
    this.events.length = 0;
  }

  /** compact forgets the watch history up to now: watches from an older resourceVersion get 410 Gone. */
  compact(): void {
    this.#hub.compact(this.#rv);
  }

  /** stallWatches silences every open watch without ending it (a dead connection). */
  stallWatches(): void {
    this.#hub.stall();
  }

  /** endWatches closes every open watch, with err (e.g. 410 Gone) or as a normal server-side timeout. */
  endWatches(err?: KubeError): void {
    this.#hub.endAll(err);
  }

  // ---- the store ----

  #create(obj: KubeObject, ref: ObjectRef): KubeObject {
    const meta = obj.metadata;
    if ((meta.name ?? '') === '') {
      if ((meta.generateName ?? '') === '') throw new KubeError(422, 'Invalid', 'metadata.name is required');
      meta.name = `${meta.generateName ?? ''}${randomUUID().slice(0, 5)}`;
    }
    const key = this.#key({ ...ref, name: meta.name ?? '' });
    if (this.#store.has(key)) {
      throw new KubeError(409, 'AlreadyExists', `${describeRef({ ...ref, name: meta.name ?? '' })} already exists`);
    }
    if (ref.namespace === undefined) delete meta.namespace;
    else meta.namespace = ref.namespace;
    const created: KubeObject = this.#withoutStatusIfSubresource(obj as PlainObject, ref.kind) as KubeObject;
    created.metadata = { ...meta, uid: randomUUID(), creationTimestamp: this.#now(), generation: 1 };
    delete created.metadata.deletionTimestamp;
    this.#commit('ADDED', key, created);
    return created;
  }

  #update(live: KubeObject, proposed: KubeObject, part: 'main' | 'status'): KubeObject {
    const next: KubeObject = part === 'status'
      ? { ...structuredClone(live), status: structuredClone(proposed.status) }
      : this.#keepStatus(live, proposed);
    next.apiVersion = live.apiVersion;
    next.kind = live.kind;
    const m = live.metadata;
    next.metadata = { ...next.metadata, name: m.name, namespace: m.namespace, uid: m.uid,
      creationTimestamp: m.creationTimestamp, deletionTimestamp: m.deletionTimestamp, generation: m.generation,
      resourceVersion: m.resourceVersion };
    if (next.metadata.namespace === undefined) delete next.metadata.namespace;
    if (next.metadata.deletionTimestamp === undefined) delete next.metadata.deletionTimestamp;
    if (m.deletionTimestamp !== undefined) {
      const old = new Set(m.finalizers ?? []);
      if ((next.metadata.finalizers ?? []).some((f) => !old.has(f))) {
        throw new KubeError(422, 'Invalid', 'no new finalizers can be added if the object is being deleted');
      }
    }
    if (canonicalJson(next) === canonicalJson(live)) return live;
    if (canonicalJson(specOf(next)) !== canonicalJson(specOf(live))) next.metadata.generation = (m.generation ?? 0) + 1;
    const key = this.#key(this.#ref(live));
    this.#commit('MODIFIED', key, next);
    if (next.metadata.deletionTimestamp !== undefined && (next.metadata.finalizers ?? []).length === 0) {
      this.#remove(next);
    }
    return next;
  }

  #recordUpdate(verb: FakeVerb, ref: ObjectRef, live: KubeObject, proposed: KubeObject, part: 'main' | 'status'):
    KubeObject {
    const updated = this.#update(live, proposed, part);
    this.#record(verb, ref, updated !== live);
    return structuredClone(updated);
  }

  #delete(obj: KubeObject, policy: 'Foreground' | 'Background' | 'Orphan'): void {
    if (obj.metadata.deletionTimestamp !== undefined) return;
    const uid = obj.metadata.uid ?? '';
    if (policy === 'Orphan') {
      for (const dep of this.#dependents(uid)) {
        const refs = (dep.metadata.ownerReferences ?? []).filter((r) => r.uid !== uid);
        this.#update(dep, { ...structuredClone(dep), metadata: { ...dep.metadata, ownerReferences: refs } }, 'main');
      }
    }
    if (policy === 'Foreground') this.#collect(uid, 'Foreground');
    if ((obj.metadata.finalizers ?? []).length > 0) {
      const marked = structuredClone(obj);
      marked.metadata.deletionTimestamp = this.#now();
      marked.metadata.deletionGracePeriodSeconds = 0;
      // the API server bumps generation when it marks an object (apiserver registry store.go markAsDeleting)
      marked.metadata.generation = (obj.metadata.generation ?? 0) + 1;
      this.#commit('MODIFIED', this.#key(this.#ref(obj)), marked);
      return;
    }
    this.#remove(obj);
  }

  #remove(obj: KubeObject): void {
    const key = this.#key(this.#ref(obj));
    if (!this.#store.has(key)) return;
    for (const managedKey of this.#applied.keys()) if (managedKey.startsWith(`${key}|`)) this.#applied.delete(managedKey);
    this.#commit('DELETED', key, structuredClone(obj));
    this.#collect(obj.metadata.uid ?? '', 'Background');
  }

  /** #collect is the garbage collector: dependents whose owners are all gone are deleted. */
  #collect(ownerUid: string, policy: 'Foreground' | 'Background'): void {
    const live = new Set([...this.#store.values()].map((o) => o.metadata.uid));
    live.delete(ownerUid);
    for (const dep of this.#dependents(ownerUid)) {
      const others = (dep.metadata.ownerReferences ?? []).filter((r: V1OwnerReference) => live.has(r.uid));
      if (others.length === 0) this.#delete(dep, policy);
    }
  }

  #dependents(ownerUid: string): KubeObject[] {
    return [...this.#store.values()].filter((o) => (o.metadata.ownerReferences ?? []).some((r) => r.uid === ownerUid));
  }

  #commit(type: 'ADDED' | 'MODIFIED' | 'DELETED', key: string, obj: KubeObject): void {
    this.#rv += 1;
    obj.metadata.resourceVersion = String(this.#rv);
    if (type === 'DELETED') this.#store.delete(key);
    else this.#store.set(key, obj);
    this.#hub.record({ rv: this.#rv, group: groupOf(obj.apiVersion), kind: obj.kind,
      namespace: obj.metadata.namespace, type, object: structuredClone(obj) });
  }

  #keepStatus(live: KubeObject, proposed: KubeObject): KubeObject {
    const next = structuredClone(proposed);
    if (this.#noStatus.has(live.kind)) return next;
    if (live.status === undefined) delete next.status;
    else next.status = structuredClone(live.status);
    return next;
  }

  #withoutStatusIfSubresource(obj: PlainObject, kind: string): PlainObject {
    if (!this.#noStatus.has(kind)) delete obj.status;
    return obj;
  }

  #precondition(live: KubeObject, resourceVersion: unknown): void {
    if (resourceVersion === undefined || resourceVersion === '') return;
    if (String(resourceVersion) !== live.metadata.resourceVersion) {
      throw new KubeError(409, 'Conflict', `Operation cannot be fulfilled on ${describeRef(this.#ref(live))}: ` +
        'the object has been modified; please apply your changes to the latest version and try again');
    }
  }

  #mustGet(ref: ObjectRef): KubeObject {
    const live = this.#store.get(this.#key(ref));
    if (live === undefined) throw new KubeError(404, 'NotFound', `${describeRef(ref)} not found`);
    return live;
  }

  #check(verb: FakeVerb, ref: ObjectRef): void {
    const rule = this.#failures.find((r) => (r.verb === undefined || r.verb === verb)
      && (r.kind === undefined || r.kind === ref.kind) && (r.name === undefined || r.name === ref.name));
    if (rule === undefined) return;
    rule.times -= 1;
    if (rule.times <= 0) this.#failures = this.#failures.filter((r) => r !== rule);
    throw rule.error;
  }

  #record(verb: FakeVerb, ref: ObjectRef, changed: boolean, fieldManager?: string): void {
    this.writes.push(fieldManager === undefined ? { verb, ref, changed } : { verb, ref, changed, fieldManager });
  }

  #ref(obj: KubeObject | ObjectRef): ObjectRef {
    const r = 'metadata' in obj
      ? { apiVersion: obj.apiVersion, kind: obj.kind, namespace: obj.metadata.namespace, name: obj.metadata.name ?? '' }
      : obj;
    if (CLUSTER_SCOPED.has(r.kind)) return { apiVersion: r.apiVersion, kind: r.kind, name: r.name };
    return { apiVersion: r.apiVersion, kind: r.kind, namespace: r.namespace ?? 'default', name: r.name };
  }

  #key(ref: ObjectRef): string {
    const r = this.#ref(ref);
    return `${groupOf(r.apiVersion)}|${r.kind}|${r.namespace ?? ''}|${r.name}`;
  }
}

function groupOf(apiVersion: string): string {
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? '' : apiVersion.slice(0, slash);
}

function specOf(obj: KubeObject): PlainObject {
  const { metadata: _metadata, status: _status, ...rest } = obj;
  return rest;
}

function keyOrder(o: KubeObject): string {
  return `${o.metadata.namespace ?? ''}/${o.metadata.name ?? ''}`;
}
