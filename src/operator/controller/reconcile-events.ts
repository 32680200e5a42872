/** @module Events on a Middleware: the human-readable trail of every step (`kubectl describe middleware`). */
import { randomBytes } from 'node:crypto';
import type { CoreV1Event, V1ObjectReference } from '@kubernetes/client-node';
import type { Middleware } from '../api/middleware-types.ts';
import type { KubeClient, KubeObject } from '../kube/client.ts';
import { MANAGED_BY } from '../specs/meta.ts';

/** EventType is the Event severity Kubernetes knows. */
export type EventType = 'Normal' | 'Warning';

/** EventRecorder records one Event on a Middleware; failures are swallowed (an Event is never worth a failed reconcile). */
export type EventRecorder = (mw: Middleware, type: EventType, reason: string, message: string) => Promise<void>;

/**
 * OperatorHome is the operator's own pod: Events about a Middleware that its namespace refuses (a namespace being
 * deleted takes no new objects) are recorded there instead, where `kubectl get events -n <operator namespace>`
 * finds them.
 */
export interface OperatorHome {
  readonly namespace: string;
  readonly pod: string;
}

/** HomeEventRecorder records one Event on the operator's own pod; failures are swallowed as EventRecorder's are. */
export type HomeEventRecorder = (type: EventType, reason: string, message: string) => Promise<void>;

/** createEventRecorder records Events through kube, stamped by clock, under the operator's component name. */
export function createEventRecorder(
  kube: KubeClient,
  clock: () => Date,
  onError: (err: unknown) => void = () => {},
): EventRecorder {
  return async function recordEvent(mw, type, reason, message) {
    const involved: V1ObjectReference = {
      apiVersion: mw.apiVersion,
      kind: mw.kind,
      name: mw.metadata.name ?? 'middleware',
      namespace: mw.metadata.namespace,
      uid: mw.metadata.uid,
      resourceVersion: mw.metadata.resourceVersion,
    };
    await send(kube, buildEvent(involved, clock(), type, reason, message), onError);
  };
}

/** createHomeEventRecorder records Events on the operator's own pod (none when it does not know where it runs). */
export function createHomeEventRecorder(
  kube: KubeClient,
  clock: () => Date,
  home: OperatorHome | undefined,
  onError: (err: unknown) => void = () => {},
): HomeEventRecorder {
  return async function recordHomeEvent(type, reason, message) {
    if (home === undefined) return;
    // an Event's namespace is its object's: the API server refuses any other
    const involved: V1ObjectReference = { apiVersion: 'v1', kind: 'Pod', name: home.pod, namespace: home.namespace };
    await send(kube, buildEvent(involved, clock(), type, reason, message), onError);
  };
}

/** buildEvent is a core/v1 Event on `involved`, in its namespace, named like client-go's `<object>.<hex>`. */
function buildEvent(
  involved: V1ObjectReference,
  at: Date,
  type: EventType,
  reason: string,
  message: string,
): CoreV1Event {
  const name = involved.name ?? 'object';
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: {
      name: `${name}.${at.getTime().toString(16)}${randomBytes(3).toString('hex')}`,
      namespace: involved.namespace,
    },
    involvedObject: involved,
    type,
    reason,
    // The API server caps messages at 1 KiB.
    message: message.length > 1024 ? `${message.slice(0, 1021)}...` : message,
    source: { component: MANAGED_BY },
    reportingComponent: MANAGED_BY,
    firstTimestamp: at,
    lastTimestamp: at,
    count: 1,
  };
}

async function send(kube: KubeClient, event: CoreV1Event, onError: (err: unknown) => void): Promise<void> {
  try {
    await kube.createEvent(event);
  } catch (err) {
    onError(err);
  }
}

/**
 * overrideMessage says which child the operator took fields back on, and from whom (the API server's conflict
 * message names the other field manager and each field), for the ChildOverridden Event.
 */
export function overrideMessage(child: KubeObject, conflict: Error): string {
  return `${child.kind} ${child.metadata.name ?? ''} was changed by another field manager; the operator set it back (${conflict.message})`;
}
