/**
 * @module What a Job's pods said when they ended: the termination messages of their containers (a `mdw db usage`
 * report, or an error: the log's end with FallbackToLogsOnError), read from the Pods' status.
 */
import type { V1Job, V1Pod } from '@kubernetes/client-node';
import type { KubeClient, KubeObject } from '../kube/client.ts';
import { listAll } from '../kube/list-all.ts';
import { formatSelector } from '../specs/meta.ts';
import { JOB_NAME_LABEL, jobFailure } from './reconcile-children.ts';

/**
 * jobError is why a failed Job failed: the Job controller's reason and the end of its last pod's termination message
 * (the container's error, or its log's end with FallbackToLogsOnError).
 */
export async function jobError(kube: KubeClient, job: V1Job & KubeObject): Promise<string> {
  return failureOf(job, await terminationMessages(kube, job));
}

/** failureOf is the Job controller's reason with the end of the last failed container's message. */
export function failureOf(job: V1Job, messages: readonly Ended[]): string {
  const tail = messages.filter((m) => m.exitCode !== 0).at(-1)?.message ?? messages.at(-1)?.message;
  return `${jobFailure(job)}${tail === undefined ? '' : `: ${tail.trim().slice(-500)}`}`;
}

/** Ended is how one of the Job's containers ended: its exit code and termination message. */
export interface Ended {
  readonly exitCode: number;
  readonly message: string;
}

/** terminationMessages are the termination messages of the Job's pods' containers, oldest pod first. */
export async function terminationMessages(kube: KubeClient, job: V1Job & KubeObject): Promise<Ended[]> {
  const { items } = await listAll<V1Pod & KubeObject>(kube, 'v1', 'Pod', job.metadata.namespace, {
    labelSelector: formatSelector({ [JOB_NAME_LABEL]: job.metadata.name ?? '' }),
  });
  return (
    items
      .sort((a, b) => createdAt(a) - createdAt(b))
      // an init container (a restore Job's fetch) that failed ended the pod before its main container ran
      .flatMap((pod) => [...(pod.status?.initContainerStatuses ?? []), ...(pod.status?.containerStatuses ?? [])])
      .map((c) => c.state?.terminated)
      .filter((t) => t?.message !== undefined && t.message !== '')
      .map((t) => ({ exitCode: t?.exitCode ?? -1, message: t?.message ?? '' }))
  );
}

/** createdAt is an object's creation time in ms (a Date once revived, an RFC 3339 string as sent); 0 when unknown. */
function createdAt(obj: KubeObject): number {
  const at = obj.metadata.creationTimestamp;
  return at === undefined ? 0 : new Date(at).getTime() || 0;
}
