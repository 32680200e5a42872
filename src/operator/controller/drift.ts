/**
 * @module Drift: whether a live child still holds every field the operator sets (a `kubectl edit` of a Service's
 * selector or a Deployment's image and replicas changes the object, not its input-hash annotation). Pure.
 */
import { QUANTITY_FIELDS, QUANTITY_MAPS, sameQuantity } from '../kube/canonical-quantity.ts';
import type { KubeObject } from '../kube/client.ts';

/** LIST_KEYS: the key of lists whose items the API server merges by key (containers, env, ports …). */
const LIST_KEYS = ['name', 'containerPort', 'port', 'mountPath'] as const;

/** Position is what a value is: a field, a map of quantities (a ResourceList), one of its values, or one quantity. */
type Position = 'field' | 'quantities' | 'listed-quantity' | 'quantity';

/**
 * hasDrifted is true when live lacks a field desired sets, or holds another value there: its labels and
 * annotations, and everything outside metadata and status. Fields only live has (the API server's defaults, other
 * managers' fields) are no drift, nor is a quantity the API server wrote in its canonical form ("0.5" stored as
 * "500m", "1024Mi" as "1Gi").
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
function holds(live: unknown, desired: unknown, at: Position = 'field'): boolean {
  if (desired === undefined) return true;
  if (at === 'quantity') return sameQuantity(live, desired);
  if (at === 'listed-quantity') return sameQuantity(live, desired, 'milli');
  if (Array.isArray(desired)) {
    if (!Array.isArray(live) || live.length !== desired.length) return false;
    return desired.every((item, i) => holds(keyed(live, item) ?? live[i], item));
  }
  if (isMap(desired)) {
    if (!isMap(live)) return false;
    return Object.entries(desired).every(([k, v]) => holds(live[k], v, positionOf(at, k)));
  }
  return live === desired;
}

/** positionOf is what the field `key` of a map at `parent` is. */
function positionOf(parent: Position, key: string): Position {
  if (parent === 'quantities') return 'listed-quantity';
  if (QUANTITY_FIELDS.has(key)) return 'quantity';
  return QUANTITY_MAPS.has(key) ? 'quantities' : 'field';
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
