/** @module Memoised id decoding and encoding for hot paths (devnode generation and serving, tx serialisation and rendering). */
import { decode, encode, type Prefix } from './encoding.ts';

const MAX_ENTRIES = 100_000;
const bytesCache = new Map<string, Uint8Array>();
const reprefixCache = new Map<string, string>();
const taggedCache = new Map<string, Uint8Array>();
const encodedCache = new Map<string, string>();
function remember<V>(cache: Map<string, V>, key: string, value: V): V {
  if (cache.size >= MAX_ENTRIES) cache.clear();
  cache.set(key, value);
  return value;
}

/** idBytes is the payload of an encoded id (checked by `decode` the first time it is seen). */
export function idBytes(id: string): Uint8Array {
  return bytesCache.get(id) ?? remember(bytesCache, id, decode(id).bytes);
}

/** taggedIdBytes is the node's binary id, `tag` then the id's payload (the caller picks the tag of its prefix). */
export function taggedIdBytes(id: string, tag: number): Uint8Array {
  return taggedCache.get(id) ?? remember(taggedCache, id, Buffer.concat([Uint8Array.of(tag), idBytes(id)]));
}

/**
 * encodedId is `encode(prefix, bytes)` of an id's 32 bytes, remembered: rendering stored transactions
 * (chain/stored-tx.ts) meets the same accounts again and again, and Base58 with its checksum is most of a rendering.
 */
export function encodedId(prefix: Prefix, bytes: Uint8Array): string {
  const key = `${prefix}${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('latin1')}`;
  return encodedCache.get(key) ?? remember(encodedCache, key, encode(prefix, bytes));
}

/** withPrefix is the same 32 bytes under another prefix (`ak_X` → `ok_X`). */
export function withPrefix(id: string, prefix: Prefix): string {
  if (id.startsWith(`${prefix}_`)) return id;
  const key = `${prefix}:${id}`;
  return reprefixCache.get(key) ?? remember(reprefixCache, key, encode(prefix, idBytes(id)));
}

/** flat copies a string into one flat V8 string (for strings other encoders built as ropes). */
export function flat(text: string): string {
  return Buffer.from(text, 'latin1').toString('latin1');
}
