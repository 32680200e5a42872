/**
 * @module Drift: whether a live child still holds every field the operator sets (a `kubectl edit` of a Service's
 * selector or a Deployment's image and replicas changes the object, not its input-hash annotation). Pure.
 */
import type { KubeObject } from '../kube/client.ts';

/** LIST_KEYS: the key of lists whose items the API server merges by key (containers, env, ports …). */
const LIST_KEYS = ['name', 'containerPort', 'port', 'mountPath'] as const;

/**
 * hasDrifted is true when live lacks a field desired sets, or holds another value there: its labels and
 * annotations, and everything outside metadata and status. Fields only live has (the API server's defaults, other
 * managers' fields) are no drift.
 */
export function hasDrifted(live: KubeObject, desired: KubeObject): boolean {
  const { metadata, status: _status, ...body } = desired;
  const { metadata: liveMeta, status: _liveStatus, ...liveBody } = live;
  return (
    !holds(liveMeta.labels ?? {}, metadata.labels ?? {}) ||
    !holds(liveMeta.annotations ?? {}, metadata.annotations ?? {}) ||
    !holds(liveBody, body)
  );
}

/** holds is true when live has every field of desired with the same value (maps and lists recursively). */
function holds(live: unknown, desired: unknown): boolean {
  if (desired === undefined) return true;
  if (Array.isArray(desired)) {
    if (!Array.isArray(live) || live.length !== desired.length) return false;
    return desired.every((item, i) => holds(keyed(live, item) ?? live[i], item));
  }
  if (isMap(desired)) {
    if (!isMap(live)) return false;
    return Object.entries(desired).every(([k, v]) => holds(live[k], v));
  }
  return live === desired;
}

/** keyed finds the live item with desired item's key (items of keyed lists may be reordered by other writers). */
function keyed(live: unknown[], item: unknown): unknown {
  if (!isMap(item)) return undefined;
  const key = LIST_KEYS.find((k) => item[k] !== undefined);
  return key === undefined ? undefined : live.find((l) => isMap(l) && l[key] === item[key]);
}

function isMap(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
