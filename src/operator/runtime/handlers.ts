/** @module Event filters that turn informer events into work-queue keys of the owning Middleware. */
import type { KubeObject } from '../kube/client.ts';
import { objectKey } from './informer.ts';
import type { InformerHandlers } from './informer.ts';

/**
 * hasStateChanged tells whether an update of a primary object needs a reconcile: generation (spec), labels,
 * annotations, finalizers or deletion changed. A status-only write (ours included) changes none of them.
 */
export function hasStateChanged(old: KubeObject, obj: KubeObject): boolean {
  const a = old.metadata;
  const b = obj.metadata;
  return (
    a.generation !== b.generation ||
    !sameJson(a.labels, b.labels) ||
    !sameJson(a.annotations, b.annotations) ||
    !sameJson(a.finalizers, b.finalizers) ||
    (a.deletionTimestamp === undefined) !== (b.deletionTimestamp === undefined)
  );
}

/** primaryHandlers enqueue a Middleware's own key on add, delete, resync and state-changing updates. */
export function primaryHandlers<T extends KubeObject>(enqueue: (key: string) => void): InformerHandlers<T> {
  return {
    onAdd: (obj) => enqueue(objectKey(obj)),
    onUpdate: (old, obj) => {
      if (hasStateChanged(old, obj)) enqueue(objectKey(obj));
    },
    onDelete: (obj) => enqueue(objectKey(obj)),
    onResync: (obj) => enqueue(objectKey(obj)),
  };
}

/**
 * ownedHandlers enqueue the key of the controlling owner of kind ownerKind on any change of a child (status changes
 * of children, like a Job completing or a Deployment becoming ready, are exactly what reconcile waits for).
 */
export function ownedHandlers<T extends KubeObject>(
  ownerKind: string,
  enqueue: (key: string) => void,
): InformerHandlers<T> {
  const toOwner = (obj: T): void => {
    const owner = (obj.metadata.ownerReferences ?? []).find((r) => r.controller === true && r.kind === ownerKind);
    if (owner === undefined) return;
    const ns = obj.metadata.namespace;
    enqueue(ns === undefined || ns === '' ? owner.name : `${ns}/${owner.name}`);
  };
  return { onAdd: toOwner, onUpdate: (_old, obj) => toOwner(obj), onDelete: toOwner };
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}
