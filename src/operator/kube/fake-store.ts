/** @module The fake API server's object store: resourceVersion, generation, status isolation, SSA and finalizers. */
import { randomUUID } from 'node:crypto';
import { KubeError, describeRef } from './client.ts';
import type { KubeObject, ObjectRef } from './client.ts';
import { customKindOf } from './fake-crd.ts';
import type { CustomKind } from './fake-crd.ts';
import { GarbageCollector } from './fake-gc.ts';
import type { PropagationPolicy } from './fake-gc.ts';
import { checkCrd } from './fake-crd-check.ts';
import { afterApply, afterUpdate, applyMerge, conflictsOf } from './fake-fields.ts';
import { OwnershipBook } from './fake-ownership.ts';
import type { Ownership } from './fake-fields.ts';
import { WatchHub } from './fake-watch.ts';
import { canonicalJson, copyJson, mergePatch } from './merge.ts';
import type { PlainObject } from './merge.ts';
import { byKeyOrder, groupOf, isClusterScoped, refOf, storageKey } from './fake-keys.ts';

/** Part says which part of an object a write may change: everything but status, or status only. */
export type Part = 'main' | 'status';

/**
 * CONTROLLER_MANAGER is the field manager of writes made as Kubernetes' own controllers (status, garbage collection);
 * CLIENT_MANAGER that of updates (create, PUT, merge patch) sent without a field manager, as the API server names them
 * after the client.
 */
export const CONTROLLER_MANAGER = 'kube-controller-manager';
export const CLIENT_MANAGER = 'unknown';

const CRD_GROUP = 'apiextensions.k8s.io';

/** FakeStore holds the objects and applies every write the way the API server would; it records nothing. */
export class FakeStore {
  readonly hub = new WatchHub();
  readonly #objects = new Map<string, KubeObject>();
  /** customKinds caches the CRD (or none) of each apiVersion|kind until a CRD changes. */
  readonly #customKinds = new Map<string, CustomKind | undefined>();
  readonly #noStatus: Set<string>;
  readonly #now: () => Date;
  readonly #ownership: OwnershipBook;
  #admission = true;
  readonly #gc = new GarbageCollector({
    objects: () => this.#objects.values(),
    updateAsController: (live, proposed) => this.update(live, proposed, 'main', CONTROLLER_MANAGER),
    mark: (obj, finalizers) => this.#mark(obj, finalizers),
    remove: (obj) => this.#remove(obj),
  });
  #rv = 100; // real servers never hand out "0" (it means "any version" to a watch)

  constructor(now: () => Date, kindsWithoutStatus: Iterable<string>) {
    this.#now = now;
    this.#ownership = new OwnershipBook(now);
    this.#noStatus = new Set(kindsWithoutStatus);
  }

  /** rv is the current global resourceVersion. */
  get rv(): number {
    return this.#rv;
  }

  /** find gives the live object (not a copy) or undefined. */
  find(ref: ObjectRef): KubeObject | undefined {
    return this.#objects.get(storageKey(ref));
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
      .filter((o) => namespace === undefined || isClusterScoped(kind) || o.metadata.namespace === namespace)
      .sort(byKeyOrder)
      .map((o) => copyJson(o) as T);
  }

  /**
   * objectsAt copies every object of a kind as it was at resourceVersion rv (the snapshot every page of a paginated
   * list serves), by undoing the newer history; 410 Gone once compaction has forgotten that far back.
   */
  objectsAt<T extends KubeObject>(rv: number, apiVersion: string, kind: string, namespace?: string): T[] {
    const group = groupOf(apiVersion);
    const state = new Map<string, KubeObject>();
    for (const o of this.objectsOf(apiVersion, kind)) state.set(storageKey(refOf(o)), o);
    for (const ev of this.hub.since(rv)) {
      if (ev.group !== group || ev.kind !== kind) continue;
      if (ev.type === 'ADDED') state.delete(ev.key);
      else state.set(ev.key, copyJson(ev.previous ?? ev.object));
    }
    return [...state.values()]
      .filter((o) => namespace === undefined || isClusterScoped(kind) || o.metadata.namespace === namespace)
      .sort(byKeyOrder) as T[];
  }

  /**
   * hasStatusSubresource tells whether the kind's status is only written through /status: as its CRD says for a
   * custom resource whose CRD the store holds, otherwise unless the kind was named without one.
   */
  hasStatusSubresource(apiVersion: string, kind: string): boolean {
    return this.customKind(apiVersion, kind)?.hasStatus ?? !this.#noStatus.has(kind);
  }

  /** customKind is the served version of a CRD the store holds for apiVersion and kind (cached per CRD version). */
  customKind(apiVersion: string, kind: string): CustomKind | undefined {
    const cacheKey = `${apiVersion}|${kind}`;
    if (this.#customKinds.has(cacheKey)) return this.#customKinds.get(cacheKey);
    const group = groupOf(apiVersion);
    const crd = [...this.#objects.values()].find(
      (o) =>
        groupOf(o.apiVersion) === CRD_GROUP &&
        o.kind === 'CustomResourceDefinition' &&
        (o.spec as { group?: string } | undefined)?.group === group &&
        (o.spec as { names?: { kind?: string } } | undefined)?.names?.kind === kind,
    );
    const custom = crd === undefined ? undefined : customKindOf(crd, apiVersion);
    this.#customKinds.set(cacheKey, custom);
    return custom;
  }

  /** create stores a new object with server fields (uid, creationTimestamp, generation 1); 409 when taken. */
  create(obj: KubeObject, manager = CLIENT_MANAGER, ownership?: Map<string, Ownership>): KubeObject {
    const meta = obj.metadata;
    if ((meta.name ?? '') === '') {
      if ((meta.generateName ?? '') === '') throw new KubeError(422, 'Invalid', 'metadata.name is required');
      meta.name = `${meta.generateName ?? ''}${randomUUID().slice(0, 5)}`;
    }
    const ref = refOf(obj);
    const key = storageKey(ref);
    if (this.#objects.has(key)) throw new KubeError(409, 'AlreadyExists', `${describeRef(ref)} already exists`);
    const admitted = this.#admit(this.#withoutStatusIfSubresource(obj));
    const created: KubeObject = { ...admitted, metadata: { ...admitted.metadata } };
    created.metadata = { ...meta, uid: randomUUID(), creationTimestamp: this.#now(), generation: 1 };
    if (ref.namespace === undefined) delete created.metadata.namespace;
    else created.metadata.namespace = ref.namespace;
    delete created.metadata.deletionTimestamp;
    this.#ownership.set(key, ownership ?? afterUpdate(new Map(), manager, undefined, created));
    this.#commit('ADDED', key, created);
    return created;
  }

  /**
   * apply is a server-side apply by fieldManager (creates when absent); returns the live object. Unless forced, a
   * field that another manager applied with a different value is a 409 Conflict, as on a real API server.
   */
  apply(obj: KubeObject, fieldManager: string, force: boolean): KubeObject {
    if (fieldManager === '') throw new KubeError(422, 'Invalid', 'fieldManager is required for apply');
    const config = this.#withoutStatusIfSubresource(copyJson(obj));
    const ref = refOf(obj);
    const key = storageKey(ref);
    const live = this.find(ref);
    const managers = this.#ownership.of(key);
    if (live === undefined) {
      return this.create(copyJson(config), fieldManager, afterApply(managers, fieldManager, config, []));
    }
    this.precondition(live, config.metadata.resourceVersion);
    const conflicts = conflictsOf(managers, fieldManager, live, config);
    if (conflicts.length > 0 && !force) {
      const list = conflicts.map((c) => `conflict with "${c.manager}": ${c.path}`).join(', ');
      throw new KubeError(409, 'Conflict', `Apply failed with ${conflicts.length} conflict(s): ${list}`);
    }
    const ownership = afterApply(managers, fieldManager, config, conflicts);
    const merged = applyMerge(live, managers, fieldManager, config) as KubeObject;
    const result = this.update(live, merged, 'main', fieldManager, ownership);
    // ownership moves even when no value does (two managers agreeing on a field share it)
    if (result === live) this.#ownership.set(key, ownership);
    return result;
  }

  /** managersOf is what each field manager owns of the object at ref (empty when absent). */
  managersOf(ref: ObjectRef): ReadonlyMap<string, Ownership> {
    return this.#ownership.of(storageKey(ref));
  }

  /** mergeStatus merge-patches status only; 404 for kinds without a status subresource. */
  mergeStatus(ref: ObjectRef, status: unknown, resourceVersion?: string): KubeObject {
    const live = this.mustFind(ref);
    if (!this.hasStatusSubresource(ref.apiVersion, ref.kind)) {
      throw new KubeError(404, 'NotFound', `${ref.kind} has no status subresource`);
    }
    this.precondition(live, resourceVersion);
    return this.update(live, { ...live, status: mergePatch(live.status, status) }, 'status', CLIENT_MANAGER);
  }

  /**
   * update writes proposed over live: server fields are kept, status is isolated, a no-op write returns live itself
   * (same resourceVersion, no event), generation moves on spec changes, and a marked object whose last finalizer
   * goes away is removed. The fields manager changed become its own (ownership given: what an apply decided).
   */
  update(
    live: KubeObject,
    proposed: KubeObject,
    part: Part,
    manager: string,
    ownership?: Map<string, Ownership>,
  ): KubeObject {
    const next: KubeObject =
      part === 'status' ? { ...copyJson(live), status: copyJson(proposed.status) } : this.#keepStatus(live, proposed);
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
      managedFields: m.managedFields,
    };
    for (const k of ['namespace', 'deletionTimestamp', 'deletionGracePeriodSeconds', 'managedFields'] as const) {
      if (next.metadata[k] === undefined) delete next.metadata[k];
    }
    if (m.deletionTimestamp !== undefined) {
      const old = new Set(m.finalizers ?? []);
      if ((next.metadata.finalizers ?? []).some((f) => !old.has(f))) {
        throw new KubeError(422, 'Invalid', 'no new finalizers can be added if the object is being deleted');
      }
    }
    const admitted = this.#admit(next, live);
    if (canonicalJson(admitted) === canonicalJson(live)) return live;
    if (canonicalJson(specOf(admitted)) !== canonicalJson(specOf(live)))
      admitted.metadata.generation = (m.generation ?? 0) + 1;
    const key = storageKey(refOf(live));
    this.#ownership.set(key, ownership ?? afterUpdate(this.#ownership.of(key), manager, live, admitted));
    this.#commit('MODIFIED', key, admitted);
    if (admitted.metadata.deletionTimestamp !== undefined && (admitted.metadata.finalizers ?? []).length === 0) {
      this.#remove(admitted);
    }
    return admitted;
  }

  /** delete removes obj, or only marks it while finalizers remain; its dependents follow the policy (fake-gc.ts). */
  delete(obj: KubeObject, policy: PropagationPolicy): void {
    this.#gc.delete(obj, policy);
  }

  /** precondition throws 409 Conflict when resourceVersion is given and is not live's. */
  precondition(live: KubeObject, resourceVersion: unknown): void {
    if (resourceVersion === undefined || resourceVersion === '') return;
    if (String(resourceVersion) !== live.metadata.resourceVersion) {
      throw new KubeError(
        409,
        'Conflict',
        `Operation cannot be fulfilled on ${describeRef(refOf(live))}: ` +
          'the object has been modified; please apply your changes to the latest version and try again',
      );
    }
  }

  /** #mark sets deletionTimestamp with these finalizers (the API server bumps generation: store.go markAsDeleting). */
  #mark(obj: KubeObject, finalizers: string[]): void {
    const marked = copyJson(obj);
    marked.metadata.deletionTimestamp = this.#now();
    marked.metadata.deletionGracePeriodSeconds = 0;
    marked.metadata.finalizers = finalizers;
    marked.metadata.generation = (obj.metadata.generation ?? 0) + 1;
    this.#commit('MODIFIED', storageKey(refOf(obj)), marked);
  }

  #remove(obj: KubeObject): void {
    const key = storageKey(refOf(obj));
    if (!this.#objects.has(key)) return;
    this.#ownership.forget(key);
    this.#commit('DELETED', key, copyJson(obj));
    this.#gc.removed(obj);
  }

  /** withoutAdmission runs write with no CRD admission (a test hook: objects an older CRD let in). */
  withoutAdmission<T>(write: () => T): T {
    this.#admission = false;
    try {
      return write();
    } finally {
      this.#admission = true;
    }
  }

  /**
   * #admit refuses a CRD the API server would, and prunes, defaults and validates a custom resource whose CRD the store
   * holds (other kinds pass as they are).
   */
  #admit(obj: KubeObject, old?: KubeObject): KubeObject {
    if (!this.#admission) return obj;
    if (obj.kind === 'CustomResourceDefinition' && groupOf(obj.apiVersion) === CRD_GROUP) checkCrd(obj);
    return this.customKind(obj.apiVersion, obj.kind)?.admit(obj, old) ?? obj;
  }

  /**
   * withManagedFields is a copy of obj with its metadata.managedFields rendered from the ownership the store keeps
   * (rendered on the way out, not stored: the store copies objects on every write, and the fieldsV1 trees would
   * double what it copies).
   */
  withManagedFields<T extends KubeObject>(obj: T): T {
    const out = copyJson(obj);
    const managedFields = this.#ownership.managedFields(storageKey(refOf(obj)), obj.apiVersion);
    if (managedFields !== undefined) out.metadata.managedFields = managedFields as never;
    return out;
  }

  #commit(type: 'ADDED' | 'MODIFIED' | 'DELETED', key: string, obj: KubeObject): void {
    const previous = this.#objects.get(key);
    if (obj.kind === 'CustomResourceDefinition') this.#customKinds.clear(); // a CRD changed: read them again
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
      object: copyJson(obj),
      ...(previous === undefined ? {} : { previous: copyJson(previous) }),
    });
  }

  #keepStatus(live: KubeObject, proposed: KubeObject): KubeObject {
    const next = copyJson(proposed);
    if (!this.hasStatusSubresource(live.apiVersion, live.kind)) return next;
    if (live.status === undefined) delete next.status;
    else next.status = copyJson(live.status);
    return next;
  }

  #withoutStatusIfSubresource(obj: KubeObject): KubeObject {
    if (this.hasStatusSubresource(obj.apiVersion, obj.kind)) delete obj.status;
    return obj;
  }
}

function specOf(obj: KubeObject): PlainObject {
  const { metadata: _metadata, status: _status, ...rest } = obj;
  return rest;
}
