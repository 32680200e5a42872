/**
 * @module The fake API server's garbage collector: cascading deletion through ownerReferences as Kubernetes does it
 * (Kubernetes documentation, "Garbage Collection", "Cascading deletion"). Pure over the store it is given.
 */
import type { KubeObject } from './client.ts';
import { copyJson } from './merge.ts';

/** PropagationPolicy is the delete cascade. */
export type PropagationPolicy = 'Foreground' | 'Background' | 'Orphan';

/** FOREGROUND_FINALIZER holds an owner deleted in the foreground until its blocking dependents are gone. */
export const FOREGROUND_FINALIZER = 'foregroundDeletion';

/** GcStore is what the collector needs of the store: its objects and the writes Kubernetes' controllers make. */
export interface GcStore {
  /** the live objects */
  objects(): Iterable<KubeObject>;
  /** writes proposed over live as Kubernetes' controllers do (CONTROLLER_MANAGER) */
  updateAsController(live: KubeObject, proposed: KubeObject): void;
  /** sets deletionTimestamp with these finalizers */
  mark(obj: KubeObject, finalizers: string[]): void;
  /** removes the object (and calls removed) */
  remove(obj: KubeObject): void;
}

/** GarbageCollector deletes with a propagation policy and collects the dependents of what the store removed. */
export class GarbageCollector {
  readonly #store: GcStore;

  constructor(store: GcStore) {
    this.#store = store;
  }

  /**
   * delete removes obj, or only marks it while finalizers remain; dependents follow the policy: Background removes
   * the owner first and its dependents after; Foreground marks the owner with the foregroundDeletion finalizer,
   * deletes its dependents, and removes the owner once no dependent with blockOwnerDeletion is left; Orphan leaves
   * the dependents, unowned.
   */
  delete(obj: KubeObject, policy: PropagationPolicy): void {
    if (obj.metadata.deletionTimestamp !== undefined) return;
    const uid = obj.metadata.uid ?? '';
    if (policy === 'Orphan') {
      for (const dep of this.#dependents(uid)) {
        const refs = (dep.metadata.ownerReferences ?? []).filter((r) => r.uid !== uid);
        this.#store.updateAsController(dep, {
          ...copyJson(dep),
          metadata: { ...dep.metadata, ownerReferences: refs },
        });
      }
    }
    const finalizers = obj.metadata.finalizers ?? [];
    if (policy === 'Foreground') {
      this.#store.mark(obj, [...finalizers, FOREGROUND_FINALIZER]);
      for (const dep of this.#dependents(uid)) this.delete(dep, 'Foreground');
      this.#releaseForeground(uid);
    } else if (finalizers.length > 0) this.#store.mark(obj, finalizers);
    else this.#store.remove(obj);
  }

  /** removed follows the removal of obj: its orphaned dependents go (background), its foreground owners may go. */
  removed(obj: KubeObject): void {
    this.#collect(obj.metadata.uid ?? '');
    for (const owner of obj.metadata.ownerReferences ?? []) this.#releaseForeground(owner.uid);
  }

  /** #collect is the background garbage collector: dependents whose owners are all gone are deleted. */
  #collect(ownerUid: string): void {
    const live = new Set([...this.#store.objects()].map((o) => o.metadata.uid));
    live.delete(ownerUid);
    for (const dep of this.#dependents(ownerUid)) {
      const others = (dep.metadata.ownerReferences ?? []).filter((r) => live.has(r.uid));
      if (others.length === 0) this.delete(dep, 'Background');
    }
  }

  /** #releaseForeground drops the foregroundDeletion finalizer of owner uid once no blocking dependent is left. */
  #releaseForeground(uid: string): void {
    const owner = [...this.#store.objects()].find((o) => o.metadata.uid === uid);
    if (owner === undefined || !(owner.metadata.finalizers ?? []).includes(FOREGROUND_FINALIZER)) return;
    const blocking = this.#dependents(uid).some((d) =>
      (d.metadata.ownerReferences ?? []).some((r) => r.uid === uid && r.blockOwnerDeletion === true),
    );
    if (blocking) return;
    const finalizers = (owner.metadata.finalizers ?? []).filter((f) => f !== FOREGROUND_FINALIZER);
    this.#store.updateAsController(owner, { ...copyJson(owner), metadata: { ...owner.metadata, finalizers } });
  }

  #dependents(ownerUid: string): KubeObject[] {
    return [...this.#store.objects()].filter((o) => (o.metadata.ownerReferences ?? []).some((r) => r.uid === ownerUid));
  }
}
