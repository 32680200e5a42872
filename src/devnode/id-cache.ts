/** @module Memoised id decoding: the same account ids are decoded for every transaction, and Base58 is slow. */
import { decode, encode, type Prefix } from '../chain/encoding.ts';

const MAX_ENTRIES = 100_000;
const bytesCache = new Map<string, Uint8Array>();
const reprefixCache = new Map<string, string>();

function remember<V>(cache: Map<string, V>, key: string, value: V): V {
  if (cache.size >= MAX_ENTRIES) cache.clear();
  cache.set(key, value);
  return value;
}

/** idBytes is the payload of an encoded id (checked by `decode` the first time it is seen). */
export function idBytes(id: string): Uint8Array {
  return bytesCache.get(id) ?? remember(bytesCache, id, decode(id).bytes);
}

/** withPrefix is the same 32 bytes under another prefix (`ak_X` → `ok_X`). */
export function withPrefix(id: string, prefix: Prefix): string {
  if (id.startsWith(`${prefix}_`)) return id;
  const key = `${prefix}:${id}`;
  return reprefixCache.get(key) ?? remember(reprefixCache, key, encodeFlat(prefix, idBytes(id)));
}

/**
 * flat copies a string into one flat V8 string. Base58/Base64 encoders build their output a
 * character at a time, which V8 keeps as a rope of ~40 nodes (≈1.5 KB per id); the devnode
 * stores hundreds of thousands of ids, so it flattens what it keeps.
 */
export function flat(text: string): string {
  return Buffer.from(text, 'latin1').toString('latin1');
}

/** encodeFlat is `encode` with a flat result, for ids the devnode stores. */
export function encodeFlat(prefix: Prefix, bytes: Uint8Array): string {
  return flat(encode(prefix, bytes));
}
