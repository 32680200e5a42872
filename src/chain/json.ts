/** @module Lossless JSON: integers beyond 2^53 survive a parse and a stringify digit for digit. */

/** A JSON value as this project holds it: unsafe integers are bigints, everything else as JSON.parse gives it. */
export type Json = null | boolean | number | bigint | string | Json[] | { [key: string]: Json };

interface ReviverContext {
  readonly source?: string;
}

const UNSAFE_DIGITS = /\d{16}/;

/**
 * parseJson parses node JSON without losing digits. Node's JSON.parse hands the reviver the
 * source text of each primitive, so an integer outside the safe range becomes a bigint built
 * from its own digits rather than from the rounded double.
 */
export function parseJson(text: string): Json {
  // only an integer of 16 digits or more can be unsafe; without one the reviver (slow) has nothing to do
  if (!UNSAFE_DIGITS.test(text)) return JSON.parse(text) as Json;
  return JSON.parse(text, function revive(this: unknown, _key: string, value: unknown, context?: ReviverContext) {
    if (typeof value === 'number' && !Number.isSafeInteger(value) && context?.source !== undefined) {
      const source = context.source;
      if (/^-?\d+$/.test(source)) return BigInt(source);
    }
    return value;
  } as Parameters<typeof JSON.parse>[1]) as Json;
}

/** stringifyJson writes bigints as bare JSON integers (never as strings, never rounded). */
export function stringifyJson(value: unknown, space?: number): string {
  // without a bigint the replacer (called for every value) changes nothing: JSON.stringify says so by throwing
  try {
    return JSON.stringify(value, undefined, space);
  } catch (err) {
    if (!(err instanceof TypeError)) throw err;
  }
  return JSON.stringify(
    value,
    function replace(_key, v: unknown) {
      return typeof v === 'bigint' ? JSON.rawJSON(v.toString()) : v;
    },
    space,
  );
}

/** toBigInt reads an integer field that may be a number, a bigint or a decimal string. */
export function toBigInt(value: unknown): bigint {
  if (typeof value === 'bigint') return value;
  if (typeof value === 'number' && Number.isSafeInteger(value)) return BigInt(value);
  if (typeof value === 'string' && /^-?\d+$/.test(value)) return BigInt(value);
  throw new TypeError(`not an integer: ${String(value)}`);
}

/** toSafeNumber narrows an integer to a number, throwing when it would lose digits. */
export function toSafeNumber(value: unknown): number {
  const big = toBigInt(value);
  const n = Number(big);
  if (!Number.isSafeInteger(n)) throw new RangeError(`integer beyond 2^53: ${big}`);
  return n;
}

/** isJsonObject is true for a plain JSON object (not an array, not null). */
export function isJsonObject(value: unknown): value is { [key: string]: Json } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
