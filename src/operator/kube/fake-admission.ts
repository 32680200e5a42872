/**
 * @module What the API server refuses of a new object before storing it, beyond its schema: the NamespaceLifecycle
 * admission (a namespace being deleted takes no new content, Events included: 403) and an Event's validation (its
 * namespace is its object's: 422). Pure.
 */
import type { CoreV1Event } from '@kubernetes/client-node';
import { KubeError } from './client.ts';
import type { KubeObject, ObjectRef } from './client.ts';

/**
 * admitCreate throws the 403 NamespaceLifecycle answers a create of `ref` in `namespace` (its Namespace object, or
 * undefined) while that namespace is being deleted.
 */
export function admitCreate(ref: ObjectRef, namespace: KubeObject | undefined): void {
  if (ref.namespace === undefined || namespace?.metadata.deletionTimestamp === undefined) return;
  throw new KubeError(
    403,
    'Forbidden',
    `${ref.kind} "${ref.name}" is forbidden: ` +
      `unable to create new content in namespace ${ref.namespace} because it is being terminated`,
  );
}

/** validateEvent throws the 422 of an Event's validation: it names its object, a reason, and its object's namespace. */
export function validateEvent(event: CoreV1Event): void {
  const invalid = (why: string) =>
    new KubeError(422, 'Invalid', `Event "${event.metadata.name ?? ''}" is invalid: ${why}`);
  if (event.involvedObject.name === undefined || event.reason === undefined)
    throw invalid('an Event needs involvedObject.name and reason');
  // a namespaced object's Events live in its namespace; a cluster-scoped one's in "default" (or none)
  const object = event.involvedObject.namespace ?? '';
  const own = event.metadata.namespace ?? '';
  const matches = object === '' ? own === '' || own === 'default' : own === object;
  if (!matches) throw invalid(`involvedObject.namespace: Invalid value: "${object}": does not match event.namespace`);
}
