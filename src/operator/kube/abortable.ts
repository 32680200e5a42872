/**
 * @module A KubeClient whose writes stop once a signal aborts: a reconcile started by a leader that has since lost its
 * Lease must not move a selector or prune a child after its successor took over (issue 14). Reads pass through.
 */
import type { KubeClient } from './client.ts';

/** withAbort wraps kube so that every write first checks `signal` and throws its reason once it has aborted. */
export function withAbort(kube: KubeClient, signal: AbortSignal): KubeClient {
  return {
    get: (ref) => kube.get(ref),
    list: (apiVersion, kind, namespace, options) => kube.list(apiVersion, kind, namespace, options),
    watch: (request, onEvent, onDone) => kube.watch(request, onEvent, onDone),
    apply: (obj, fieldManager, options) => {
      signal.throwIfAborted();
      return kube.apply(obj, fieldManager, options);
    },
    create: (obj) => {
      signal.throwIfAborted();
      return kube.create(obj);
    },
    replace: (obj) => {
      signal.throwIfAborted();
      return kube.replace(obj);
    },
    patchStatus: (ref, status, rv) => {
      signal.throwIfAborted();
      return kube.patchStatus(ref, status, rv);
    },
    patchMerge: (ref, patch) => {
      signal.throwIfAborted();
      return kube.patchMerge(ref, patch);
    },
    delete: (ref, opts) => {
      signal.throwIfAborted();
      return kube.delete(ref, opts);
    },
    createEvent: (event) => {
      signal.throwIfAborted();
      return kube.createEvent(event);
    },
  };
}
