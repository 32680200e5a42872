/** @module Pure object merges the API server performs: JSON merge patch (RFC 7386), and canonical JSON to compare. */

/** PlainObject is a JSON object (not an array, not a Date). */
export type PlainObject = Record<string, unknown>;

/** isPlainObject tells a JSON object from arrays, Dates, null and scalars. */
export function isPlainObject(v: unknown): v is PlainObject {
  if (typeof v !== 'object' || v === null) return false;
  const proto: unknown = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

/**
 * copyJson is a deep copy of a JSON value (objects, arrays, scalars; undefined kept), as structuredClone copies it: the
 * fake API server copies every object it stores and serves, and structuredClone's serialisation took about seven
 * times as long for a Deployment, a fifth of a blue/green file's CPU. Anything else (a Date) is structuredClone's.
 */
export function copyJson<T>(v: T): T {
  if (typeof v !== 'object' || v === null) return v;
  if (Array.isArray(v)) return v.map(copyJson) as T;
  if (!isPlainObject(v)) return structuredClone(v);
  const out: PlainObject = {};
  for (const k of Object.keys(v)) out[k] = copyJson(v[k]);
  return out as T;
}

/** mergePatch applies an RFC 7386 JSON merge patch: null deletes, objects merge, everything else replaces. */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (!isPlainObject(patch)) return copyJson(patch);
  const out: PlainObject = isPlainObject(target) ? { ...target } : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else out[k] = mergePatch(out[k], v);
  }
  return out;
}

/** canonicalJson is a key-sorted JSON text: equal objects give equal strings (Dates as ISO strings). */
export function canonicalJson(v: unknown): string {
  return JSON.stringify(sortKeys(v));
}

function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v instanceof Date) return v.toISOString();
  if (!isPlainObject(v)) return v;
  const out: PlainObject = {};
  for (const k of Object.keys(v).sort()) if (v[k] !== undefined) out[k] = sortKeys(v[k]);
  return out;
}
