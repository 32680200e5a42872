/** @module Memoised id decoding and encoding for hot paths (devnode generation and serving, tx serialisation and rendering). */
import { decode, decodeCanonical, encode, type Prefix } from './encoding.ts';

const MAX_ENTRIES = 100_000;
const bytesCache = new Map<string, Uint8Array>();
const reprefixCache = new Map<string, string>();
const taggedCache = new Map<string, Uint8Array>();
const encodedCache = new Map<string, string>();
const fieldCache = new Map<string, { bytes: Uint8Array; canonical: boolean }>();
const encodedFieldCache = new Map<string, string>();
function remember<V>(cache: Map<string, V>, key: string, value: V, max = MAX_ENTRIES): V {
  if (cache.size >= max) cache.clear();
  cache.set(key, value);
  return value;
}

/** idBytes is the payload of an encoded id (checked by `decode` the first time it is seen). */
export function idBytes(id: string): Uint8Array {
  // a copy of its own: the decoded bytes are a slice of Node's buffer pool, which a remembered slice would keep alive
  return bytesCache.get(id) ?? remember(bytesCache, id, new Uint8Array(decode(id).bytes));
}

/** taggedIdBytes is the node's binary id, `tag` then the id's payload (the caller picks the tag of its prefix). */
export function taggedIdBytes(id: string, tag: number): Uint8Array {
  // a copy of its own too (Buffer.concat's small results are slices of the pool: each kept one kept 8 KiB alive)
  return (
    taggedCache.get(id) ?? remember(taggedCache, id, new Uint8Array(Buffer.concat([Uint8Array.of(tag), idBytes(id)])))
  );
}

/**
 * encodedId is `encode(prefix, bytes)` of an id's 32 bytes, remembered: rendering stored transactions
 * (chain/stored-tx.ts) and reading FATE values (chain/fate.ts) meet the same accounts again and again, and Base58 with
 * its checksum is most of a rendering.
 */
export function encodedId(prefix: Prefix, bytes: Uint8Array): string {
  const key = bytesKey(prefix, bytes);
  return encodedCache.get(key) ?? remember(encodedCache, key, encode(prefix, bytes));
}

/** bytesKey is a cache's key of `encode(prefix, bytes)`. */
function bytesKey(prefix: Prefix, bytes: Uint8Array): string {
  return `${prefix}${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('latin1')}`;
}

/**
 * SHORT_FIELD is the longest encoded field remembered, FIELD_ENTRIES how many (a few MB at most): the chain repeats
 * short ones (empty payloads, call data), and a long one is contract code, met once.
 */
const SHORT_FIELD = 160;
const FIELD_ENTRIES = 10_000;

/**
 * decodedField is `decodeCanonical(text, prefix)`, remembered for short texts: a SpendTx's empty payload
 * (`ba_Xfbg4g==`) and the call data of popular calls recur, and the checksum (two SHA-256) is most of their decoding.
 * The bytes are shared: callers copy, never change them.
 */
export function decodedField(text: string, prefix: Prefix): { bytes: Uint8Array; canonical: boolean } {
  if (text.length > SHORT_FIELD) return decodeCanonical(text, prefix);
  const known = fieldCache.get(text);
  // the text's own prefix is the one it was decoded with
  if (known && text.startsWith(prefix) && text[2] === '_') return known;
  const { bytes, canonical } = decodeCanonical(text, prefix);
  // a copy, as idBytes keeps
  return remember(fieldCache, text, { bytes: new Uint8Array(bytes), canonical }, FIELD_ENTRIES);
}

/** SHORT_FIELD_BYTES: the most bytes of a field whose encoding encodedField remembers (its text within SHORT_FIELD). */
const SHORT_FIELD_BYTES = 112;

/**
 * encodedField is `encode(prefix, bytes)` of a transaction's field (a payload, call data), remembered for short ones:
 * a rendering of stored transactions meets the same again and again (most spends' empty payload, `ba_Xfbg4g==`; the
 * call data of popular calls), and the checksum (two SHA-256) is most of their encoding.
 */
export function encodedField(prefix: Prefix, bytes: Uint8Array): string {
  if (bytes.length > SHORT_FIELD_BYTES) return encode(prefix, bytes);
  const key = bytesKey(prefix, bytes);
  return encodedFieldCache.get(key) ?? remember(encodedFieldCache, key, encode(prefix, bytes), FIELD_ENTRIES);
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
