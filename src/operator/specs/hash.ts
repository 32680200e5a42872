/** @module Input hashes: a stable digest of a child's desired content, stored as an annotation to skip no-op writes. Pure. */
import { createHash } from 'node:crypto';
import type { KubeObject } from '../kube/client.ts';
import { ANNOTATION_INPUT_HASH } from './meta.ts';

/** hashInputs digests any JSON-like value; key order does not matter, undefined members are ignored. */
export function hashInputs(value: unknown, length = 16): string {
  return createHash('sha256').update(canonicalJson(value)).digest('hex').slice(0, length);
}

/** withInputHash returns obj with ANNOTATION_INPUT_HASH set to the hash of everything else in it. */
export function withInputHash<T extends KubeObject>(obj: T): T {
  const annotations = { ...obj.metadata.annotations };
  delete annotations[ANNOTATION_INPUT_HASH];
  const bare = { ...obj, metadata: { ...obj.metadata, annotations } };
  return {
    ...obj,
    metadata: { ...obj.metadata, annotations: { ...annotations, [ANNOTATION_INPUT_HASH]: hashInputs(bare) } },
  };
}

/** inputHashOf reads the annotation (undefined for an absent object or one written by someone else). */
export function inputHashOf(obj: KubeObject | undefined): string | undefined {
  return obj?.metadata.annotations?.[ANNOTATION_INPUT_HASH];
}

/** isUpToDate is true when current carries the same input hash as desired, so no write is needed. */
export function isUpToDate(current: KubeObject | undefined, desired: KubeObject): boolean {
  const want = inputHashOf(desired);
  return want !== undefined && inputHashOf(current) === want;
}

/** canonicalJson is JSON with object keys sorted, so equal content always gives equal text. */
export function canonicalJson(value: unknown): string {
  if (value === undefined) return 'null';
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}
