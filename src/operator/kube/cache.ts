/** @module The read side of informers: objects kept up to date by list and watch, read without an API request. */
import type { KubeObject } from './client.ts';

/** ObjectCache reads what informers hold; the reconciler lists a Middleware's children from it. */
export interface ObjectCache {
  /**
   * list gives the cached objects of a kind in a namespace (all when undefined) that match labelSelector; undefined
   * when no informer caches that kind (the caller then asks the API server).
   */
  list<T extends KubeObject>(
    apiVersion: string,
    kind: string,
    namespace: string | undefined,
    labelSelector?: string,
  ): T[] | undefined;
}
