/**
 * @module What the API server's decoder refuses of the kinds it serves itself, before any validation: a body that
 * cannot be read as the kind's Go type is a 400 BadRequest ("… cannot be handled as a Lease"). Pure.
 *
 * The times of a Lease are metav1.MicroTime, which parses RFC3339 with exactly six fractional digits: a JavaScript
 * Date's JSON (three digits) is refused. The fake reads each such field as it would travel (its JSON) and keeps that
 * string, as the real server answers it.
 */
import { KubeError } from './client.ts';
import type { KubeObject } from './client.ts';
import { groupOf } from './fake-keys.ts';

/** RFC3339_MICRO is Go's `2006-01-02T15:04:05.000000Z07:00`: six fractional digits, a zone of Z or ±hh:mm. */
const RFC3339_MICRO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}(Z|[+-]\d\d:\d\d)$/;

/** MICRO_TIME_FIELDS are the MicroTime fields of spec, per group|kind. */
const MICRO_TIME_FIELDS: Readonly<Record<string, readonly string[]>> = {
  'coordination.k8s.io|Lease': ['acquireTime', 'renewTime'],
};

/** decodeBuiltIn gives obj with its MicroTime fields as their JSON strings, or throws the API server's 400. */
export function decodeBuiltIn(obj: KubeObject): KubeObject {
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
