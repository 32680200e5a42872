/** @module Pure object merges the API server performs: JSON merge patch (RFC 7386) and a server-side-apply merge. */

/** PlainObject is a JSON object (not an array, not a Date). */
export type PlainObject = Record<string, unknown>;

/** isPlainObject tells a JSON object from arrays, Dates, null and scalars. */
export function isPlainObject(v: unknown): v is PlainObject {
  if (typeof v !== 'object' || v === null) return false;
  const proto: unknown = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

/** mergePatch applies an RFC 7386 JSON merge patch: null deletes, objects merge, everything else replaces. */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (!isPlainObject(patch)) return structuredClone(patch);
  const out: PlainObject = isPlainObject(target) ? { ...target } : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else out[k] = mergePatch(out[k], v);
  }
  return out;
}

/**
 * applyMerge is server-side apply for one field manager, simplified: maps merge recursively, lists are atomic except
 * the set-like metadata.finalizers and metadata.ownerReferences (merged by value / uid), and every field the manager
 * applied last time but omits now is removed (that is how SSA deletes).
 */
export function applyMerge(live: PlainObject, previous: PlainObject | undefined, applied: PlainObject): PlainObject {
  const pruned = previous === undefined ? structuredClone(live) : prune(structuredClone(live), previous, applied);
  const merged = mergeApplied(pruned, applied) as PlainObject;
  const liveMeta = (live.metadata ?? {}) as PlainObject;
  const prevMeta = (previous?.metadata ?? {}) as PlainObject;
  const appliedMeta = (applied.metadata ?? {}) as PlainObject;
  const meta = (merged.metadata ?? {}) as PlainObject;
  setOrDelete(meta, 'finalizers', mergeSet(liveMeta.finalizers, prevMeta.finalizers, appliedMeta.finalizers, String));
  setOrDelete(
    meta,
    'ownerReferences',
    mergeSet(liveMeta.ownerReferences, prevMeta.ownerReferences, appliedMeta.ownerReferences, (r) =>
      String((r as PlainObject).uid),
    ),
  );
  merged.metadata = meta;
  return merged;
}

/** conflictingFields lists the paths both configurations set, to different values (lists compare whole). */
export function conflictingFields(a: PlainObject, b: PlainObject, path = ''): string[] {
  const out: string[] = [];
  for (const [k, v] of Object.entries(a)) {
    if (!(k in b) || v === undefined) continue;
    const w = b[k];
    const here = `${path}.${k}`;
    if (isPlainObject(v) && isPlainObject(w)) out.push(...conflictingFields(v, w, here));
    else if (canonicalJson(v) !== canonicalJson(w)) out.push(here);
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

function prune(live: PlainObject, previous: PlainObject, applied: PlainObject): PlainObject {
  for (const [k, prev] of Object.entries(previous)) {
    if (!(k in live)) continue;
    if (!(k in applied)) delete live[k];
    else if (isPlainObject(prev) && isPlainObject(applied[k]) && isPlainObject(live[k])) {
      live[k] = prune(live[k], prev, applied[k]);
    }
  }
  return live;
}

function mergeApplied(live: unknown, applied: unknown): unknown {
  if (!isPlainObject(applied) || !isPlainObject(live)) return structuredClone(applied);
  const out: PlainObject = { ...live };
  for (const [k, v] of Object.entries(applied)) {
    if (v !== undefined) out[k] = mergeApplied(out[k], v);
  }
  return out;
}

function mergeSet(live: unknown, previous: unknown, applied: unknown, keyOf: (v: unknown) => string): unknown[] {
  const asList = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
  const appliedKeys = new Set(asList(applied).map(keyOf));
  const dropped = new Set(
    asList(previous)
      .map(keyOf)
      .filter((k) => !appliedKeys.has(k)),
  );
  const kept = asList(live).filter((v) => !dropped.has(keyOf(v)) && !appliedKeys.has(keyOf(v)));
  return [...kept, ...asList(applied).map((v) => structuredClone(v))];
}

function setOrDelete(obj: PlainObject, key: string, list: unknown[]): void {
  if (list.length > 0) obj[key] = list;
  else delete obj[key];
}
