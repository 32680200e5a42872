/**
 * @module Where the fake API server keeps an object: its scope (namespaced or cluster-wide), its storage key and its
 * list order, as the API server's etcd keys have them. Pure.
 */
import type { KubeObject, ObjectRef } from './client.ts';

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

/** isClusterScoped tells whether kind lives outside namespaces. */
export function isClusterScoped(kind: string): boolean {
  return CLUSTER_SCOPED.has(kind);
}

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

/** groupOf is the API group of an apiVersion ('' for the core group). */
export function groupOf(apiVersion: string): string {
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? '' : apiVersion.slice(0, slash);
}

/** refOf names an object or normalizes a ref: namespaced kinds default to "default", cluster kinds lose it. */
export function refOf(obj: KubeObject | ObjectRef): ObjectRef {
  const r =
    'metadata' in obj
      ? { apiVersion: obj.apiVersion, kind: obj.kind, namespace: obj.metadata.namespace, name: obj.metadata.name ?? '' }
      : obj;
  if (CLUSTER_SCOPED.has(r.kind)) return { apiVersion: r.apiVersion, kind: r.kind, name: r.name };
  return { apiVersion: r.apiVersion, kind: r.kind, namespace: r.namespace ?? 'default', name: r.name };
}

/** storageKey is the key an object is stored under: group (not version), kind, namespace, name. */
export function storageKey(ref: ObjectRef): string {
  const r = refOf(ref);
  return `${groupOf(r.apiVersion)}|${r.kind}|${r.namespace ?? ''}|${r.name}`;
}

/** byKeyOrder sorts by namespace/name in byte order, as etcd keys are (and as list pages continue). */
export function byKeyOrder(a: KubeObject, b: KubeObject): number {
  const x = keyOrder(a);
  const y = keyOrder(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** keyOrder is an object's place in a list (namespace/name), which continue tokens resume after. */
export function keyOrder(o: KubeObject): string {
  return `${o.metadata.namespace ?? ''}/${o.metadata.name ?? ''}`;
}
