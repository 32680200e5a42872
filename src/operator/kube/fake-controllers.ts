/**
 * @module What Kubernetes' own controllers write about the objects the fake holds (the Job and Deployment
 * controllers, the kubelet), for FakeKube's test hooks that play them. Pure.
 */
import { randomUUID } from 'node:crypto';
import type { KubeObject } from './client.ts';

/** jobSucceededStatus is a Job's status once the Job controller saw its pod succeed. */
export function jobSucceededStatus(at: Date): Record<string, unknown> {
  return {
    succeeded: 1,
    active: 0,
    startTime: at,
    completionTime: at,
    conditions: [{ type: 'Complete', status: 'True', lastTransitionTime: at, lastProbeTime: at }],
  };
}

/** jobFailedStatus is a Job's status once the Job controller gave up after its backoff limit. */
export function jobFailedStatus(at: Date, message: string): Record<string, unknown> {
  return {
    failed: 1,
    active: 0,
    startTime: at,
    conditions: [
      {
        type: 'Failed',
        status: 'True',
        reason: 'BackoffLimitExceeded',
        message,
        lastTransitionTime: at,
        lastProbeTime: at,
      },
    ],
  };
}

/** jobPodOf is the pod the Job controller starts for job: labelled with the Job's name, owned by it. */
export function jobPodOf(job: KubeObject): KubeObject {
  const name = job.metadata.name ?? '';
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: `${name}-${randomUUID().slice(0, 5)}`,
      namespace: job.metadata.namespace,
      labels: { 'batch.kubernetes.io/job-name': name },
      ownerReferences: [{ apiVersion: 'batch/v1', kind: 'Job', name, uid: job.metadata.uid ?? '', controller: true }],
    },
  };
}

/** podSucceededStatus is what the kubelet records of a pod whose one container exited 0 with terminationMessage. */
export function podSucceededStatus(at: Date, terminationMessage: string): Record<string, unknown> {
  const terminated = { exitCode: 0, reason: 'Completed', message: terminationMessage, finishedAt: at };
  return {
    phase: 'Succeeded',
    containerStatuses: [{ name: 'mdw', ready: false, restartCount: 0, image: '', imageID: '', state: { terminated } }],
  };
}

/**
 * podFailedStatus is what the kubelet records of a pod whose container `container` exited 1 with terminationMessage
 * (with FallbackToLogsOnError, its log's end); an init container's failure ends the pod before the main container.
 */
export function podFailedStatus(at: Date, terminationMessage: string, container = 'mdw'): Record<string, unknown> {
  const terminated = { exitCode: 1, reason: 'Error', message: terminationMessage, finishedAt: at };
  const status = [{ name: container, ready: false, restartCount: 0, image: '', imageID: '', state: { terminated } }];
  return {
    phase: 'Failed',
    ...(container === 'mdw' ? { containerStatuses: status } : { initContainerStatuses: status }),
  };
}

/** deploymentReadyStatus is a Deployment's status with `ready` (default: spec.replicas) ready, available replicas. */
export function deploymentReadyStatus(live: KubeObject, ready?: number): Record<string, unknown> {
  const replicas = ((live.spec ?? {}) as { replicas?: number }).replicas ?? 1;
  const n = ready ?? replicas;
  return {
    observedGeneration: live.metadata.generation,
    replicas,
    updatedReplicas: replicas,
    readyReplicas: n,
    availableReplicas: n,
    conditions: [
      {
        type: 'Available',
        status: n >= replicas ? 'True' : 'False',
        reason: n >= replicas ? 'MinimumReplicasAvailable' : 'MinimumReplicasUnavailable',
      },
    ],
  };
}
