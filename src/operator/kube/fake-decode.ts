/**
 * @module What the API server's decoder refuses of the kinds it serves itself, before any validation: a body that
 * cannot be read as the kind's Go type is a 400 BadRequest ("… cannot be handled as a Lease"). Pure.
 *
 * The times of a Lease are metav1.MicroTime, which parses RFC3339 with exactly six fractional digits: a JavaScript
 * Date's JSON (three digits) is refused. The fake reads each such field as it would travel (its JSON) and keeps that
 * string, as the real server answers it.
 *
 * The quantities of a pod's resources and volumes are resource.Quantity: one that is none is refused, and the others
 * are stored in their canonical form ("0.5" → "500m", "1024Mi" → "1Gi"; a ResourceList's rounded up to thousandths),
 * which is what a later read returns.
 */
import { QUANTITY_FIELDS, QUANTITY_MAPS, canonicalQuantity, type Scale } from './canonical-quantity.ts';
import { KubeError } from './client.ts';
import type { KubeObject } from './client.ts';
import { groupOf } from './fake-keys.ts';
import { isPlainObject } from './merge.ts';

/** RFC3339_MICRO is Go's `2006-01-02T15:04:05.000000Z07:00`: six fractional digits, a zone of Z or ±hh:mm. */
const RFC3339_MICRO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}(Z|[+-]\d\d:\d\d)$/;

/** MICRO_TIME_FIELDS are the MicroTime fields of spec, per group|kind. */
const MICRO_TIME_FIELDS: Readonly<Record<string, readonly string[]>> = {
  'coordination.k8s.io|Lease': ['acquireTime', 'renewTime'],
};

/** POD_KINDS: the kinds that are or hold pods (the Go types whose resources and volumes hold quantities). */
const POD_KINDS: ReadonlySet<string> = new Set([
  '|Pod',
  'apps|Deployment',
  'apps|ReplicaSet',
  'apps|StatefulSet',
  'apps|DaemonSet',
  'batch|Job',
  'batch|CronJob',
]);

/**
 * decodeBuiltIn gives obj with its MicroTime fields as their JSON strings and its pods' quantities canonical, or
 * throws the API server's 400.
 */
export function decodeBuiltIn(obj: KubeObject): KubeObject {
  const kind = `${groupOf(obj.apiVersion)}|${obj.kind}`;
  const decoded = POD_KINDS.has(kind) ? { ...obj, spec: canonicalQuantities(obj, obj.spec) } : obj;
  return decodeMicroTimes(decoded);
}

function decodeMicroTimes(obj: KubeObject): KubeObject {
  const fields = MICRO_TIME_FIELDS[`${groupOf(obj.apiVersion)}|${obj.kind}`];
  const spec = obj.spec as Record<string, unknown> | undefined;
  if (fields === undefined || spec === undefined) return obj;
  const decoded: Record<string, unknown> = { ...spec };
  for (const field of fields) {
    if (spec[field] === undefined || spec[field] === null) continue;
    const text: unknown = JSON.parse(JSON.stringify(spec[field]));
    if (typeof text !== 'string' || !RFC3339_MICRO.test(text)) {
      throw new KubeError(
        400,
        'BadRequest',
        `${obj.kind} in version "${obj.apiVersion.split('/').at(-1)}" cannot be handled as a ${obj.kind}: ` +
          `parsing time ${JSON.stringify(text)} as "2006-01-02T15:04:05.000000Z07:00": cannot parse`,
      );
    }
    decoded[field] = text;
  }
  return { ...obj, spec: decoded };
}

/** canonicalQuantities copies value with every quantity (QUANTITY_MAPS' values, QUANTITY_FIELDS) canonical. */
function canonicalQuantities(obj: KubeObject, value: unknown): unknown {
  if (Array.isArray(value)) return value.map((v) => canonicalQuantities(obj, v));
  if (!isPlainObject(value)) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, v]) => {
      if (QUANTITY_FIELDS.has(key)) return [key, canonical(obj, v, 'nano')];
      if (QUANTITY_MAPS.has(key) && isPlainObject(v))
        return [key, Object.fromEntries(Object.entries(v).map(([name, q]) => [name, canonical(obj, q, 'milli')]))];
      return [key, canonicalQuantities(obj, v)];
    }),
  );
}

/** canonical is one quantity as the API server stores it; what is none is its decoder's 400. */
function canonical(obj: KubeObject, value: unknown, scale: Scale): unknown {
  if (value === undefined || value === null) return value;
  const text = typeof value === 'string' || typeof value === 'number' ? canonicalQuantity(value, scale) : undefined;
  if (text !== undefined) return text;
  throw new KubeError(
    400,
    'BadRequest',
    `${obj.kind} in version "${obj.apiVersion.split('/').at(-1)}" cannot be handled as a ${obj.kind}: ` +
      "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'",
  );
}
