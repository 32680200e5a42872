/**
 * @module The fake API server's scale subresource (Kubernetes documentation, "Extend the Kubernetes API with
 * CustomResourceDefinitions", "Scale subresource"), as `kubectl scale` and a HorizontalPodAutoscaler write it.
 */
import { KubeError } from './client.ts';
import type { KubeObject, ObjectRef } from './client.ts';
import { readPath, writePath } from './fake-crd.ts';
import type { ScaleSubresource } from './fake-crd.ts';
import type { FakeStore } from './fake-store.ts';
import { copyJson } from './merge.ts';

/** SCALABLE: the built-in kinds with a scale subresource, and the paths it reads and writes. */
const SCALABLE: ReadonlySet<string> = new Set(['Deployment', 'StatefulSet', 'ReplicaSet', 'ReplicationController']);
const BUILTIN_SCALE: ScaleSubresource = { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas' };

/**
 * writeScale sets the replicas path the CRD names (`.spec.replicas` of the built-in workloads) as manager and returns
 * the Scale; 404 for a kind without the subresource, 422 for a count that is not a non-negative integer.
 */
export function writeScale(store: FakeStore, ref: ObjectRef, replicas: number, manager: string): KubeObject {
  const live = store.mustFind(ref);
  const paths =
    store.customKind(ref.apiVersion, ref.kind)?.scale ?? (SCALABLE.has(ref.kind) ? BUILTIN_SCALE : undefined);
  if (paths === undefined) throw new KubeError(404, 'NotFound', `${ref.kind} has no scale subresource`);
  if (!Number.isSafeInteger(replicas) || replicas < 0) {
    throw new KubeError(422, 'Invalid', `spec.replicas: Invalid value: ${replicas}: must be a non-negative integer`);
  }
  const next = copyJson(live);
  writePath(next, paths.specReplicasPath, replicas);
  const updated = store.update(live, next, 'main', manager);
  const selector = paths.labelSelectorPath === undefined ? undefined : readPath(updated, paths.labelSelectorPath);
  return {
    apiVersion: 'autoscaling/v1',
    kind: 'Scale',
    metadata: { name: ref.name, namespace: ref.namespace, resourceVersion: updated.metadata.resourceVersion },
    spec: { replicas },
    status: {
      replicas: readPath(updated, paths.statusReplicasPath) ?? 0,
      ...(selector === undefined ? {} : { selector }),
    },
  };
}
