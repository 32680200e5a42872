/**
 * @module Server-side apply's field management for the fake API server, after the Kubernetes documentation page
 * "Server-Side Apply" (sections "Field management", "Conflicts", "Merge strategy"): the set of fields each manager
 * owns, conflicts between managers, ownership moved by updates, and the apply merge. Pure.
 */
import { canonicalJson, copyJson, isPlainObject } from './merge.ts';
import type { PlainObject } from './merge.ts';

/** FieldPath is one owned field: segments in FieldsV1 notation (`f:name`, `k:{"name":"x"}`, `v:"x"`). */
export type FieldPath = readonly string[];

/** Ownership is what one manager owns of an object, and how it last wrote it. */
export interface Ownership {
  readonly operation: 'Apply' | 'Update';
  readonly fields: ReadonlySet<string>;
}

/** Managers maps a field manager's name to what it owns. */
export type Managers = ReadonlyMap<string, Ownership>;

/** Conflict is one field an apply would change that another manager owns. */
export interface Conflict {
  readonly manager: string;
  /** field is the encoded FieldPath, path its human form. */
  readonly field: string;
  readonly path: string;
}

/**
 * LIST_MAP_KEYS: lists merged item by item, keyed by these fields (`x-kubernetes-list-type: map` or a
 * patch-merge-key in the built-in kinds' OpenAPI); every other list is atomic, but for the sets below.
 */
const LIST_MAP_KEYS: Readonly<Record<string, readonly string[]>> = {
  containers: ['name'],
  initContainers: ['name'],
  ephemeralContainers: ['name'],
  env: ['name'],
  volumes: ['name'],
  volumeMounts: ['mountPath'],
  imagePullSecrets: ['name'],
  ownerReferences: ['uid'],
  conditions: ['type'],
};

/** LIST_SETS: lists whose items are scalars merged as a set (`x-kubernetes-list-type: set`). */
const LIST_SETS: ReadonlySet<string> = new Set(['finalizers']);

/** METADATA_FIELDS: the metadata a manager can own; the rest is the server's (name, uid, resourceVersion …). */
const METADATA_FIELDS = ['labels', 'annotations', 'finalizers', 'ownerReferences'] as const;

const SEP = '\n';

/** fieldsOf lists every leaf field obj sets, as encoded FieldPaths (a map owns nothing itself, only its leaves). */
export function fieldsOf(obj: PlainObject): Set<string> {
  return new Set(leavesOf(obj).keys());
}

/** leavesOf maps every leaf field obj sets to its value's canonical JSON. */
function leavesOf(obj: PlainObject): Map<string, string> {
  const out = new Map<string, string>();
  const { metadata, ...rest } = obj;
  const meta = isPlainObject(metadata) ? metadata : {};
  const owned: PlainObject = { ...rest };
  const ownedMeta: PlainObject = {};
  for (const k of METADATA_FIELDS) if (meta[k] !== undefined) ownedMeta[k] = meta[k];
  if (Object.keys(ownedMeta).length > 0) owned.metadata = ownedMeta;
  delete owned.apiVersion;
  delete owned.kind;
  collect(owned, [], '', out);
  return out;
}

/** conflictsOf lists the fields of `applied` that another manager owns and whose live value would change. */
export function conflictsOf(managers: Managers, manager: string, live: PlainObject, applied: PlainObject): Conflict[] {
  const mine = fieldsOf(applied);
  const out: Conflict[] = [];
  for (const [other, ownership] of managers) {
    if (other === manager) continue;
    for (const path of ownership.fields) {
      if (!mine.has(path)) continue;
      const segments = path.split(SEP);
      if (canonicalJson(valueAt(live, segments)) !== canonicalJson(valueAt(applied, segments)))
        out.push({ manager: other, field: path, path: describePath(segments) });
    }
  }
  return out;
}

/**
 * afterApply is the ownership after `manager` applied `applied`: it owns exactly the applied fields (as an Apply),
 * the fields in conflict (a forced apply) leave their former managers, and a field applied with the value another
 * manager set stays shared.
 */
export function afterApply(
  managers: Managers,
  manager: string,
  applied: PlainObject,
  conflicts: readonly Conflict[],
): Map<string, Ownership> {
  const mine = fieldsOf(applied);
  const out = new Map<string, Ownership>();
  for (const [other, o] of managers) {
    if (other === manager) continue;
    const taken = new Set(conflicts.filter((c) => c.manager === other).map((c) => c.field));
    const fields = new Set([...o.fields].filter((f) => !taken.has(f)));
    if (fields.size > 0) out.set(other, { operation: o.operation, fields });
  }
  if (mine.size > 0) out.set(manager, { operation: 'Apply', fields: mine });
  return out;
}

/**
 * afterUpdate is the ownership after `manager` changed before into after with an update (create, PUT, PATCH): it
 * takes every field it set or changed from the others, and a field removed leaves every manager.
 */
export function afterUpdate(
  managers: Managers,
  manager: string,
  before: PlainObject | undefined,
  after: PlainObject,
): Map<string, Ownership> {
  const old = before === undefined ? new Map<string, string>() : leavesOf(before);
  const now = leavesOf(after);
  const changed = new Set([...now].filter(([f, v]) => old.get(f) !== v).map(([f]) => f));
  const out = new Map<string, Ownership>();
  for (const [other, o] of managers) {
    const fields = new Set([...o.fields].filter((f) => now.has(f) && (other === manager || !changed.has(f))));
    if (other === manager) for (const f of changed) fields.add(f);
    if (fields.size > 0) out.set(other, { operation: other === manager ? 'Update' : o.operation, fields });
  }
  if (!out.has(manager) && changed.size > 0) out.set(manager, { operation: 'Update', fields: changed });
  return out;
}

/**
 * applyMerge merges what `manager` applied into live: fields it applied before and no longer applies are removed
 * unless another manager owns them, maps merge, keyed lists merge item by item, sets merge by value, other lists
 * are replaced whole.
 */
export function applyMerge(live: PlainObject, managers: Managers, manager: string, applied: PlainObject): PlainObject {
  const mine = fieldsOf(applied);
  const kept = new Set([...managers].filter(([m]) => m !== manager).flatMap(([, o]) => [...o.fields]));
  const out = copyJson(live);
  for (const path of managers.get(manager)?.fields ?? []) {
    if (!mine.has(path) && !kept.has(path)) removeAt(out, path.split(SEP));
  }
  return mergeInto(out, applied, '') as PlainObject;
}

/** managedFieldsOf renders ownership as metadata.managedFields entries (FieldsV1), in manager order. */
export function managedFieldsOf(managers: Managers, apiVersion: string, time: Date): PlainObject[] {
  return [...managers].map(([manager, o]) => ({
    manager,
    operation: o.operation,
    apiVersion,
    time,
    fieldsType: 'FieldsV1',
    fieldsV1: fieldsV1Of(o.fields),
  }));
}

/** describePath is the human form of a field path: `.spec.template.spec.containers[name="mdw"].image`. */
export function describePath(segments: FieldPath): string {
  return segments
    .map((s) => {
      if (s.startsWith('f:')) return `.${s.slice(2)}`;
      if (s.startsWith('k:')) {
        const key = JSON.parse(s.slice(2)) as PlainObject;
        return `[${Object.entries(key)
          .map(([k, v]) => `${k}=${JSON.stringify(v)}`)
          .join(',')}]`;
      }
      return `[${s.slice(2)}]`;
    })
    .join('');
}

function collect(value: unknown, path: string[], field: string, out: Map<string, string>): void {
  if (isPlainObject(value)) {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined);
    if (entries.length === 0 && path.length > 0) out.set(path.join(SEP), '{}');
    for (const [k, v] of entries) collect(v, [...path, `f:${k}`], k, out);
    return;
  }
  const keys = LIST_MAP_KEYS[field];
  if (Array.isArray(value) && keys !== undefined && value.every((item) => hasKeys(item, keys))) {
    for (const item of value as PlainObject[]) collect(item, [...path, itemSegment(item, keys)], '', out);
    return;
  }
  if (Array.isArray(value) && LIST_SETS.has(field)) {
    for (const item of value) out.set([...path, `v:${JSON.stringify(item)}`].join(SEP), 'true');
    return;
  }
  out.set(path.join(SEP), canonicalJson(value));
}

function valueAt(obj: unknown, segments: readonly string[]): unknown {
  let here: unknown = obj;
  for (const s of segments) {
    if (s.startsWith('f:') && isPlainObject(here)) here = here[s.slice(2)];
    else if (s.startsWith('k:') && Array.isArray(here)) here = here.find((item) => itemMatches(item, s));
    else if (s.startsWith('v:') && Array.isArray(here)) here = here.find((item) => `v:${JSON.stringify(item)}` === s);
    else return undefined;
  }
  return here;
}

/** removeAt deletes the field at segments, and the maps and list items that deletion leaves empty. */
function removeAt(obj: unknown, segments: readonly string[]): void {
  const [head, ...rest] = segments;
  if (head === undefined) return;
  if (head.startsWith('f:') && isPlainObject(obj)) {
    const k = head.slice(2);
    if (rest.length === 0) delete obj[k];
    else {
      removeAt(obj[k], rest);
      if (isEmpty(obj[k])) delete obj[k];
    }
  } else if (Array.isArray(obj)) {
    const i = obj.findIndex((item) =>
      head.startsWith('k:') ? itemMatches(item, head) : `v:${JSON.stringify(item)}` === head,
    );
    if (i < 0) return;
    if (!head.startsWith('k:') || rest.length === 0) {
      obj.splice(i, 1);
      return;
    }
    // an item's key fields stay while any other field of it does: they name the item
    const isKeyField = rest.length === 1 && (rest[0] ?? '').slice(2) in (JSON.parse(head.slice(2)) as PlainObject);
    if (!isKeyField) removeAt(obj[i], rest);
    if (isOnlyKey(obj[i], head)) obj.splice(i, 1);
  }
}

function mergeInto(live: unknown, applied: unknown, field: string): unknown {
  if (isPlainObject(applied) && isPlainObject(live)) {
    const out: PlainObject = { ...live };
    for (const [k, v] of Object.entries(applied)) if (v !== undefined) out[k] = mergeInto(out[k], v, k);
    return out;
  }
  const keys = LIST_MAP_KEYS[field];
  if (Array.isArray(applied) && Array.isArray(live) && keys !== undefined) {
    const out = [...live] as unknown[];
    for (const item of applied) {
      const segment = hasKeys(item, keys) ? itemSegment(item, keys) : undefined;
      const i = segment === undefined ? -1 : out.findIndex((o) => itemMatches(o, segment));
      if (i < 0) out.push(copyJson(item));
      else out[i] = mergeInto(out[i], item, '');
    }
    return out;
  }
  if (Array.isArray(applied) && Array.isArray(live) && LIST_SETS.has(field)) {
    const seen = new Set(live.map((v) => JSON.stringify(v)));
    return [...live, ...applied.filter((v) => !seen.has(JSON.stringify(v)))];
  }
  return copyJson(applied);
}

function fieldsV1Of(fields: ReadonlySet<string>): PlainObject {
  const root: PlainObject = {};
  for (const f of [...fields].sort()) {
    let node = root;
    for (const s of f.split(SEP)) {
      node[s] ??= {};
      const next = node[s] as PlainObject;
      if (s.startsWith('k:')) next['.'] = {};
      node = next;
    }
  }
  return root;
}

function hasKeys(item: unknown, keys: readonly string[]): item is PlainObject {
  return isPlainObject(item) && keys.every((k) => item[k] !== undefined);
}

function itemSegment(item: PlainObject, keys: readonly string[]): string {
  return `k:${JSON.stringify(Object.fromEntries(keys.map((k) => [k, item[k]])))}`;
}

function itemMatches(item: unknown, segment: string): boolean {
  if (!isPlainObject(item)) return false;
  const key = JSON.parse(segment.slice(2)) as PlainObject;
  return Object.entries(key).every(([k, v]) => canonicalJson(item[k]) === canonicalJson(v));
}

function isOnlyKey(item: unknown, segment: string): boolean {
  const key = JSON.parse(segment.slice(2)) as PlainObject;
  return isPlainObject(item) && Object.keys(item).every((k) => k in key);
}

function isEmpty(v: unknown): boolean {
  return isPlainObject(v) && Object.keys(v).length === 0;
}
