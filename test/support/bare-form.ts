/**
 * @module Tests: the form in which the in-process decoder stored a call's arguments and return value before migration
 * 1009 (aepp-calldata's values made JSON, bare: `[415424]`, `true`), to build a database as a version before stored it.
 */
import type { Json } from '../../src/chain/json.ts';

/** bareForm turns decoded FATE values (bigint, Map, bytes, records) into JSON, keeping big integers exact. */
export function bareForm(value: unknown): Json {
  if (value === null || value === undefined) return null;
  if (typeof value === 'bigint' || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isSafeInteger(value) || !Number.isInteger(value) ? value : BigInt(value);
  if (value instanceof Uint8Array) return `0x${Buffer.from(value).toString('hex')}`;
  if (value instanceof Map) return [...value].map(([key, val]) => ({ key: bareForm(key), val: bareForm(val) }));
  if (Array.isArray(value)) return value.map(bareForm);
  if (typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, bareForm(v)]));
  return String(value);
}
