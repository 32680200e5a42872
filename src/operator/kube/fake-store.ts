/** @module The fake API server's object store: resourceVersion, generation, status isolation, SSA, finalizers and GC. */
import { randomUUID } from 'node:crypto';
import { KubeError, describeRef } from './client.ts';
import type { KubeObject, ObjectRef } from './client.ts';
import { WatchHub } from './fake-watch.ts';
import { applyMerge, canonicalJson, conflictingFields, mergePatch } from './merge.ts';
import type { PlainObject } from './merge.ts';

/** Part says which part of an object a write may change: everything but status, or status only. */
export type Part = 'main' | 'status';

/** PropagationPolicy is the delete cascade. */
export type PropagationPolicy = 'Foreground' | 'Background' | 'Orphan';

const CLUSTER_SCOPED = new Set([
  'Namespace',
  'Node',
  'PersistentVolume',
  'CustomResourceDefinition',
  'ClusterRole',
  'ClusterRoleBinding',
  'StorageClass',
  'PriorityClass',
  'APIService',
  'ValidatingWebhookConfiguration',
  'MutatingWebhookConfiguration',
]);

/** DEFAULT_KINDS_WITHOUT_STATUS are the kinds whose status (if any) is an ordinary field, not a subresource. */
export const DEFAULT_KINDS_WITHOUT_STATUS = [
  'ConfigMap',
  'Secret',
  'ServiceAccount',
  'Role',
  'RoleBinding',
  'ClusterRole',
  'ClusterRoleBinding',
  'Lease',
  'Event',
  'Endpoints',
  'EndpointSlice',
  'StorageClass',
  'PriorityClass',
];

/** FakeStore holds the objects and applies every write the way the API server would; it records nothing. */
export class FakeStore {
  readonly hub = new WatchHub();
  readonly #objects = new Map<string, KubeObject>();
  readonly #applied = new Map<string, PlainObject>();
  readonly #noStatus: Set<string>;
  readonly #now: () => Date;
  #rv = 100; // real servers never hand out "0" (it means "any version" to a watch)

  constructor(now: () => Date, kindsWithoutStatus: Iterable<string>) {
    this.#now = now;
    this.#noStatus = new Set(kindsWithoutStatus);
  }

  /** rv is the current global resourceVersion. */
  get rv(): number {
    return this.#rv;
  }

  /** find gives the live object (not a copy) or undefined. */
  find(ref: ObjectRef): KubeObject | undefined {
    return this.#objects.get(this.key(ref));
  }

  /** mustFind gives the live object or throws 404 NotFound. */
  mustFind(ref: ObjectRef): KubeObject {
    const live = this.find(ref);
    if (live === undefined) throw new KubeError(404, 'NotFound', `${describeRef(ref)} not found`);
    return live;
  }

  /** objectsOf copies every object of a kind, sorted by namespace/name (all namespaces when undefined). */
  objectsOf<T extends KubeObject>(apiVersion: string, kind: string, namespace?: string): T[] {
    const group = groupOf(apiVersion);
    return [...this.#objects.values()]
      .filter((o) => groupOf(o.apiVersion) === group && o.kind === kind)
      .filter((o) => namespace === undefined || CLUSTER_SCOPED.has(kind) || o.metadata.namespace === namespace)
      .sort(byKeyOrder)
      .map((o) => structuredClone(o) as T);
  }

  /**
   * objectsAt copies every object of a kind as it was at resourceVersion rv (the snapshot every page of a paginated
   * list serves), by undoing the newer history; 410 Gone once compaction has forgotten that far back.
   */
  objectsAt<T extends KubeObject>(rv: number, apiVersion: string, kind: string, namespace?: string): T[] {
    const group = groupOf(apiVersion);
    const state = new Map<string, KubeObject>();
    for (const o of this.objectsOf(apiVersion, kind)) state.set(this.key(this.refOf(o)), o);
    for (const ev of this.hub.since(rv)) {
      if (ev.group !== group || ev.kind !== kind) continue;
      if (ev.type === 'ADDED') state.delete(ev.key);
      else state.set(ev.key, structuredClone(ev.previous ?? ev.object));
    }
    return [...state.values()]
      .filter((o) => namespace === undefined || CLUSTER_SCOPED.has(kind) || o.metadata.namespace === namespace)
      .sort(byKeyOrder) as T[];
  }

  /** hasStatusSubresource tells whether kind's status is only written through /status. */
  hasStatusSubresource(kind: string): boolean {
    return !this.#noStatus.has(kind);
  }

  /** isClusterScoped tells whether kind lives outside namespaces. */
  isClusterScoped(kind: string): boolean {
    return CLUSTER_SCOPED.has(kind);
  }

  /** create stores a new object with server fields (uid, creationTimestamp, generation 1); 409 when taken. */
  create(obj: KubeObject): KubeObject {
    const meta = obj.metadata;
    if ((meta.name ?? '') === '') {
      if ((meta.generateName ?? '') === '') throw new KubeError(422, 'Invalid', 'metadata.name is required');
      meta.name = `${meta.generateName ?? ''}${randomUUID().slice(0, 5)}`;
    }
    const ref = this.refOf(obj);
    const key = this.key(ref);
    if (this.#objects.has(key)) throw new KubeError(409, 'AlreadyExists', `${describeRef(ref)} already exists`);
    const created = this.#withoutStatusIfSubresource(obj);
    created.metadata = { ...meta, uid: randomUUID(), creationTimestamp: this.#now(), generation: 1 };
    if (ref.namespace === undefined) delete created.metadata.namespace;
    else created.metadata.namespace = ref.namespace;
    delete created.metadata.deletionTimestamp;
    this.#commit('ADDED', key, created);
    return created;
  }

  /**
   * apply is a server-side apply by fieldManager (creates when absent); returns the live object. Unless forced, a
   * field that another manager applied with a different value is a 409 Conflict, as on a real API server.
   */
  apply(obj: KubeObject, fieldManager: string, force: boolean): KubeObject {
    if (fieldManager === '') throw new KubeError(422, 'Invalid', 'fieldManager is required for apply');
    const config = this.#withoutStatusIfSubresource(structuredClone(obj));
    const ref = this.refOf(obj);
    const managedKey = `${this.key(ref)}|${fieldManager}`;
    const live = this.find(ref);
    let result: KubeObject;
    if (live === undefined) {
      result = this.create(structuredClone(config));
    } else {
      this.precondition(live, config.metadata.resourceVersion);
      this.#claimFields(this.key(ref), fieldManager, config, force);
      result = this.update(live, applyMerge(live, this.#applied.get(managedKey), config) as KubeObject, 'main');
    }
    this.#applied.set(managedKey, config);
    return result;
  }

  /** claimFields refuses fields other managers set differently, or (forced) takes them away from those managers. */
  #claimFields(key: string, fieldManager: string, config: KubeObject, force: boolean): void {
    for (const [managedKey, theirs] of this.#applied) {
      if (!managedKey.startsWith(`${key}|`)) continue;
      const manager = managedKey.slice(key.length + 1);
      if (manager === fieldManager) continue;
      const { metadata: _ours, ...ourFields } = config;
      const { metadata: _theirs, ...theirFields } = theirs;
      const conflicts = conflictingFields(ourFields, theirFields);
      if (conflicts.length > 0 && force) {
        for (const path of conflicts) deletePath(theirs, path.slice(1).split('.'));
      } else if (conflicts.length > 0) {
        throw new KubeError(
          409,
          'Conflict',
          `Apply failed with ${conflicts.length} conflict(s): conflict with "${manager}": ${conflicts.join(', ')}`,
        );
      }
    }
  }

  /** mergeStatus merge-patches status only; 404 for kinds without a status subresource. */
  mergeStatus(ref: ObjectRef, status: unknown, resourceVersion?: string): KubeObject {
    const live = this.mustFind(ref);
    if (!this.hasStatusSubresource(ref.kind)) {
      throw new KubeError(404, 'NotFound', `${ref.kind} has no status subresource`);
    }
    this.precondition(live, resourceVersion);
    return this.update(live, { ...live, status: mergePatch(live.status, status) }, 'status');
  }

  /**
   * update writes proposed over live: server fields are kept, status is isolated, a no-op write returns live itself
   * (same resourceVersion, no event), generation moves on spec changes, and a marked object whose last finalizer
   * goes away is removed.
   */
  update(live: KubeObject, proposed: KubeObject, part: Part): KubeObject {
    const next: KubeObject =
      part === 'status'
        ? { ...structuredClone(live), status: structuredClone(proposed.status) }
        : this.#keepStatus(live, proposed);
    next.apiVersion = live.apiVersion;
    next.kind = live.kind;
    const m = live.metadata;
    next.metadata = {
      ...next.metadata,
      name: m.name,
      namespace: m.namespace,
      uid: m.uid,
      creationTimestamp: m.creationTimestamp,
      deletionTimestamp: m.deletionTimestamp,
      deletionGracePeriodSeconds: m.deletionGracePeriodSeconds,
      generation: m.generation,
      resourceVersion: m.resourceVersion,
    };
    for (const k of ['namespace', 'deletionTimestamp', 'deletionGracePeriodSeconds'] as const) {
      if (next.metadata[k] === undefined) delete next.metadata[k];
    }
    if (m.deletionTimestamp !== undefined) {
      const old = new Set(m.finalizers ?? []);
      if ((next.metadata.finalizers ?? []).some((f) => !old.has(f))) {
        throw new KubeError(422, 'Invalid', 'no new finalizers can be added if the object is being deleted');
      }
    }
    if (canonicalJson(next) === canonicalJson(live)) return live;
    if (canonicalJson(specOf(next)) !== canonicalJson(specOf(live))) next.metadata.generation = (m.generation ?? 0) + 1;
    this.#commit('MODIFIED', this.key(this.refOf(live)), next);
    if (next.metadata.deletionTimestamp !== undefined && (next.metadata.finalizers ?? []).length === 0) {
      this.#remove(next);
    }
    return next;
  }

  /** delete removes obj, or only marks it while finalizers remain; dependents follow the policy. */
  delete(obj: KubeObject, policy: PropagationPolicy): void {
    if (obj.metadata.deletionTimestamp !== undefined) return;
    const uid = obj.metadata.uid ?? '';
    if (policy === 'Orphan') {
      for (const dep of this.#dependents(uid)) {
        const refs = (dep.metadata.ownerReferences ?? []).filter((r) => r.uid !== uid);
        this.update(dep, { ...structuredClone(dep), metadata: { ...dep.metadata, ownerReferences: refs } }, 'main');
      }
    }
    if (policy === 'Foreground') this.#collect(uid, 'Foreground');
    if ((obj.metadata.finalizers ?? []).length > 0) {
      const marked = structuredClone(obj);
      marked.metadata.deletionTimestamp = this.#now();
      marked.metadata.deletionGracePeriodSeconds = 0;
      // the API server bumps generation when it marks an object (apiserver registry store.go markAsDeleting)
      marked.metadata.generation = (obj.metadata.generation ?? 0) + 1;
      this.#commit('MODIFIED', this.key(this.refOf(obj)), marked);
      return;
    }
    this.#remove(obj);
  }

  /** precondition throws 409 Conflict when resourceVersion is given and is not live's. */
  precondition(live: KubeObject, resourceVersion: unknown): void {
    if (resourceVersion === undefined || resourceVersion === '') return;
    if (String(resourceVersion) !== live.metadata.resourceVersion) {
      throw new KubeError(
        409,
        'Conflict',
        `Operation cannot be fulfilled on ${describeRef(this.refOf(live))}: ` +
          'the object has been modified; please apply your changes to the latest version and try again',
      );
    }
  }

  /** refOf names an object or normalizes a ref: namespaced kinds default to "default", cluster kinds lose it. */
  refOf(obj: KubeObject | ObjectRef): ObjectRef {
    const r =
      'metadata' in obj
        ? {
            apiVersion: obj.apiVersion,
            kind: obj.kind,
            namespace: obj.metadata.namespace,
            name: obj.metadata.name ?? '',
          }
        : obj;
    if (CLUSTER_SCOPED.has(r.kind)) return { apiVersion: r.apiVersion, kind: r.kind, name: r.name };
    return { apiVersion: r.apiVersion, kind: r.kind, namespace: r.namespace ?? 'default', name: r.name };
  }

  /** key is the storage key: group (not version), kind, namespace, name. */
  key(ref: ObjectRef): string {
    const r = this.refOf(ref);
    return `${groupOf(r.apiVersion)}|${r.kind}|${r.namespace ?? ''}|${r.name}`;
  }

  #remove(obj: KubeObject): void {
    const key = this.key(this.refOf(obj));
    if (!this.#objects.has(key)) return;
    for (const managedKey of this.#applied.keys())
      if (managedKey.startsWith(`${key}|`)) this.#applied.delete(managedKey);
    this.#commit('DELETED', key, structuredClone(obj));
    this.#collect(obj.metadata.uid ?? '', 'Background');
  }

  /** #collect is the garbage collector: dependents whose owners are all gone are deleted. */
  #collect(ownerUid: string, policy: 'Foreground' | 'Background'): void {
    const live = new Set([...this.#objects.values()].map((o) => o.metadata.uid));
    live.delete(ownerUid);
    for (const dep of this.#dependents(ownerUid)) {
      const others = (dep.metadata.ownerReferences ?? []).filter((r) => live.has(r.uid));
      if (others.length === 0) this.delete(dep, policy);
    }
  }

  #dependents(ownerUid: string): KubeObject[] {
    return [...this.#objects.values()].filter((o) =>
      (o.metadata.ownerReferences ?? []).some((r) => r.uid === ownerUid),
    );
  }

  #commit(type: 'ADDED' | 'MODIFIED' | 'DELETED', key: string, obj: KubeObject): void {
    const previous = this.#objects.get(key);
    this.#rv += 1;
    obj.metadata.resourceVersion = String(this.#rv);
    if (type === 'DELETED') this.#objects.delete(key);
    else this.#objects.set(key, obj);
    this.hub.record({
      rv: this.#rv,
      group: groupOf(obj.apiVersion),
      kind: obj.kind,
      namespace: obj.metadata.namespace,
      type,
      key,
      object: structuredClone(obj),
      ...(previous === undefined ? {} : { previous: structuredClone(previous) }),
    });
  }

  #keepStatus(live: KubeObject, proposed: KubeObject): KubeObject {
    const next = structuredClone(proposed);
    if (!this.hasStatusSubresource(live.kind)) return next;
    if (live.status === undefined) delete next.status;
    else next.status = structuredClone(live.status);
    return next;
  }

  #withoutStatusIfSubresource(obj: KubeObject): KubeObject {
    if (this.hasStatusSubresource(obj.kind)) delete obj.status;
    return obj;
  }
}

/** groupOf is the API group of an apiVersion ('' for the core group). */
export function groupOf(apiVersion: string): string {
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? '' : apiVersion.slice(0, slash);
}

function specOf(obj: KubeObject): PlainObject {
  const { metadata: _metadata, status: _status, ...rest } = obj;
  return rest;
}

/** byKeyOrder sorts by namespace/name in byte order, as etcd keys are (and as list pages continue). */
function byKeyOrder(a: KubeObject, b: KubeObject): number {
  const x = keyOrder(a);
  const y = keyOrder(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

function keyOrder(o: KubeObject): string {
  return `${o.metadata.namespace ?? ''}/${o.metadata.name ?? ''}`;
}

function deletePath(obj: Record<string, unknown>, path: readonly string[]): void {
  const [head, ...rest] = path;
  if (head === undefined) return;
  if (rest.length === 0) delete obj[head];
  else if (typeof obj[head] === 'object' && obj[head] !== null) deletePath(obj[head] as Record<string, unknown>, rest);
}
