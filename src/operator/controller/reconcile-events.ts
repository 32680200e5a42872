/** @module Events on a Middleware: the human-readable trail of every step (`kubectl describe middleware`). */
import { randomBytes } from 'node:crypto';
import type { CoreV1Event } from '@kubernetes/client-node';
import type { Middleware } from '../api/middleware-types.ts';
import type { KubeClient, KubeObject } from '../kube/client.ts';
import { MANAGED_BY } from '../specs/meta.ts';

/** EventType is the Event severity Kubernetes knows. */
export type EventType = 'Normal' | 'Warning';

/** EventRecorder records one Event on a Middleware; failures are swallowed (an Event is never worth a failed reconcile). */
export type EventRecorder = (mw: Middleware, type: EventType, reason: string, message: string) => Promise<void>;

/** createEventRecorder records Events through kube, stamped by clock, under the operator's component name. */
export function createEventRecorder(
  kube: KubeClient,
  clock: () => Date,
  onError: (err: unknown) => void = () => {},
): EventRecorder {
  return async function recordEvent(mw, type, reason, message) {
    const at = clock();
    const name = mw.metadata.name ?? 'middleware';
    const event: CoreV1Event = {
      apiVersion: 'v1',
      kind: 'Event',
      // Unique like client-go's `<object>.<hex>` names.
      metadata: {
        name: `${name}.${at.getTime().toString(16)}${randomBytes(3).toString('hex')}`,
        namespace: mw.metadata.namespace,
      },
      involvedObject: {
        apiVersion: mw.apiVersion,
        kind: mw.kind,
        name,
        namespace: mw.metadata.namespace,
        uid: mw.metadata.uid,
        resourceVersion: mw.metadata.resourceVersion,
      },
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
    try {
      await kube.createEvent(event);
    } catch (err) {
      onError(err);
    }
  };
}

/**
 * overrideMessage says which child the operator took fields back on, and from whom (the API server's conflict
 * message names the other field manager and each field), for the ChildOverridden Event.
 */
export function overrideMessage(child: KubeObject, conflict: Error): string {
  return `${child.kind} ${child.metadata.name ?? ''} was changed by another field manager; the operator set it back (${conflict.message})`;
}
