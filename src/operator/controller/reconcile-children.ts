/** @module Writing a Middleware's children: apply when the input hash moved, delete, list, and read Job and Deployment states. */
import type { V1Deployment, V1Job } from '@kubernetes/client-node';
import type { Middleware } from '../api/middleware-types.ts';
import {
  isKubeError,
  refOf,
  type KubeClient,
  type KubeError,
  type KubeObject,
  type ObjectRef,
} from '../kube/client.ts';
import type { ObjectCache } from '../kube/cache.ts';
import { listAll } from '../kube/list-all.ts';
import { isUpToDate } from '../specs/hash.ts';
import {
  LABEL_GENERATION,
  LABEL_INSTANCE,
  LABEL_MANAGED_BY,
  MANAGED_BY,
  formatSelector,
  labelValue,
} from '../specs/meta.ts';
import { MANAGED_KINDS } from '../specs/kinds.ts';
import type { JobState } from './bluegreen.ts';
import { hasDrifted } from './drift.ts';
import type { DeploymentCounts } from './status.ts';

/** JOB_NAME_LABEL: the Job controller labels a Job's pods with the Job's name. */
export const JOB_NAME_LABEL = 'batch.kubernetes.io/job-name';

/**
 * applyChild writes desired unless current (the live object) carries its input hash and still holds every field
 * desired sets (a `kubectl edit` of a selector, an image or replicas is drift, put back here); it returns the live
 * object after. It applies without force first, and forces only after telling `onConflict` that another field
 * manager (a person's kubectl, a GitOps tool) held a field it sets, as Strimzi does.
 */
export async function applyChild<T extends KubeObject>(
  kube: KubeClient,
  desired: T,
  current: T | undefined,
  fieldManager: string,
  onConflict: (err: KubeError) => Promise<void> | void,
): Promise<{ live: T; wrote: boolean }> {
  if (current !== undefined && isUpToDate(current, desired) && !hasDrifted(current, desired))
    return { live: current, wrote: false };
  try {
    return { live: await kube.apply(desired, fieldManager), wrote: true };
  } catch (err) {
    if (!isKubeError(err, 409)) throw err;
    await onConflict(err);
    return { live: await kube.apply(desired, fieldManager, { force: true }), wrote: true };
  }
}

/** deleteChild deletes obj (foreground for workloads, so their pods are gone before the object is); true when it existed. */
export async function deleteChild(kube: KubeClient, obj: KubeObject | ObjectRef): Promise<boolean> {
  const ref = 'metadata' in obj ? refOf(obj) : obj;
  if ('metadata' in obj && obj.metadata.deletionTimestamp !== undefined) return false;
  const foreground = ref.kind === 'Deployment' || ref.kind === 'Job';
  return kube.delete(ref, { propagationPolicy: foreground ? 'Foreground' : 'Background' });
}

/**
 * listChildren lists every child of the Middleware (by instance label and owner uid) across MANAGED_KINDS: from the
 * informers' caches when given (no API request), otherwise from the API server, paginated.
 */
export async function listChildren(kube: KubeClient, mw: Middleware, cache?: ObjectCache): Promise<KubeObject[]> {
  const selector = formatSelector({
    [LABEL_INSTANCE]: labelValue(mw.metadata.name ?? ''),
    [LABEL_MANAGED_BY]: MANAGED_BY,
  });
  const namespace = mw.metadata.namespace;
  const lists = await Promise.all(
    MANAGED_KINDS.map(async ({ apiVersion, kind }) => {
      const cached = cache?.list(apiVersion, kind, namespace, selector);
      if (cached !== undefined) return cached;
      try {
        return (await listAll(kube, apiVersion, kind, namespace, { labelSelector: selector })).items;
      } catch (err) {
        // An optional kind whose CRD is not installed (ServiceMonitor without prometheus-operator) has no children.
        if (isKubeError(err, 404)) return [];
        throw new Error(`while listing ${kind} children`, { cause: err });
      }
    }),
  );
  return lists.flat().filter((o) => isOwnedBy(o, mw));
}

/** isOwnedBy is true when obj's controlling owner is this very Middleware (same uid). */
function isOwnedBy(obj: KubeObject, mw: Middleware): boolean {
  return (obj.metadata.ownerReferences ?? []).some((o) => o.controller === true && o.uid === mw.metadata.uid);
}

/** generationOf reads the generation label of a child (undefined for instance-wide children). */
export function generationOf(obj: KubeObject): number | undefined {
  const value = obj.metadata.labels?.[LABEL_GENERATION];
  return value === undefined ? undefined : Number(value);
}

/** jobState condenses a Job's conditions (Complete / Failed) into a JobState. */
export function jobState(job: V1Job | undefined): JobState {
  if (job === undefined) return 'Absent';
  const conditions = job.status?.conditions ?? [];
  if (conditions.some((c) => (c.type === 'Complete' || c.type === 'SuccessCriteriaMet') && c.status === 'True'))
    return 'Succeeded';
  if (conditions.some((c) => (c.type === 'Failed' || c.type === 'FailureTarget') && c.status === 'True'))
    return 'Failed';
  return 'Running';
}

/** jobFailure is the Failed condition's message of a Job, for Events. */
export function jobFailure(job: V1Job | undefined): string {
  const failed = job?.status?.conditions?.find((c) => c.type === 'Failed' && c.status === 'True');
  return failed?.message ?? failed?.reason ?? 'the Job failed';
}

/** deploymentCounts reads desired (spec) and available (status) replicas of a Deployment. */
export function deploymentCounts(deployment: V1Deployment | undefined): DeploymentCounts | undefined {
  if (deployment === undefined) return undefined;
  return { desired: deployment.spec?.replicas ?? 1, available: deployment.status?.availableReplicas ?? 0 };
}

/**
 * rolloutStall is why a Deployment's rollout stopped (its Progressing condition False, ProgressDeadlineExceeded:
 * a new pod that cannot start, from a missing Secret key to an image that cannot be pulled), undefined while it
 * progresses or is done.
 */
export function rolloutStall(deployment: V1Deployment | undefined): string | undefined {
  const progressing = deployment?.status?.conditions?.find((c) => c.type === 'Progressing');
  if (progressing?.status !== 'False' || progressing.reason !== 'ProgressDeadlineExceeded') return undefined;
  return progressing.message ?? 'its progress deadline passed';
}

/**
 * isDeploymentServing: it has replicas and at least `enough` of them (or all, when it wants fewer) are available,
 * whether or not it is still scaling up or rolling.
 */
export function isDeploymentServing(deployment: V1Deployment | undefined, enough: number): boolean {
  const counts = deploymentCounts(deployment);
  return (
    counts !== undefined && counts.desired > 0 && counts.available >= Math.max(1, Math.min(counts.desired, enough))
  );
}

/** isDeploymentAvailable: the controller has seen the latest spec and every desired replica (at least one) is available. */
export function isDeploymentAvailable(deployment: V1Deployment | undefined): boolean {
  const counts = deploymentCounts(deployment);
  const observed = deployment?.status?.observedGeneration ?? -1;
  const current = observed >= (deployment?.metadata?.generation ?? 0);
  return counts !== undefined && current && counts.desired > 0 && counts.available >= counts.desired;
}
