/** @module Memoised id decoding and encoding for hot paths (devnode generation and serving, tx serialisation and rendering). */
import { decode, decodeCanonical, encode, type Prefix } from './encoding.ts';

const MAX_ENTRIES = 100_000;
const bytesCache = new Map<string, Uint8Array>();
const reprefixCache = new Map<string, string>();
const taggedCache = new Map<string, Uint8Array>();
const fieldCache = new Map<string, { bytes: Uint8Array; canonical: boolean }>();
const encodedFieldCache = new Map<number, EncodedEntry>();
function remember<K, V>(cache: Map<K, V>, key: K, value: V, max = MAX_ENTRIES): V {
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

/** A text remembered with the prefix and the bytes (a copy of its own) it encodes. */
interface EncodedEntry {
  readonly prefix: Prefix;
  readonly bytes: Uint8Array;
  readonly text: string;
}

/** sameBytes tells two byte strings of the same content. */
function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * rememberedEncoding is `encode(prefix, bytes)`, remembered in `cache` under `slot`, a small integer of the prefix and
 * bytes: a hit compares the entry's prefix and bytes, where a key string made of the bytes per look-up (a Buffer, its
 * text, a concatenation and the string's hash) cost three times as much (4.3k → 1.4k instructions an id). Another
 * encoding on the same slot takes it over: a miss, never a wrong text.
 */
function rememberedEncoding(
  cache: Map<number, EncodedEntry>,
  slot: number,
  prefix: Prefix,
  bytes: Uint8Array,
  max: number,
): string {
  const known = cache.get(slot);
  if (known !== undefined && known.prefix === prefix && sameBytes(known.bytes, bytes)) return known.text;
  const text = encode(prefix, bytes);
  // a copy: the bytes given are often a view of a buffer that is reused or long (a stored transaction's)
  remember(cache, slot, { prefix, bytes: new Uint8Array(bytes), text }, max);
  return text;
}

/** prefixBits mixes a prefix into a slot (`ak_X` and `ok_X` have the same bytes). */
function prefixBits(prefix: Prefix): number {
  return (prefix.charCodeAt(0) << 7) | prefix.charCodeAt(1);
}

const encodedIdCache = new Map<number, EncodedEntry>();

/**
 * encodedId is `encode(prefix, bytes)` of an id's 32 bytes, remembered: rendering stored transactions
 * (chain/stored-tx.ts) and reading FATE values (chain/fate.ts) meet the same accounts again and again, and Base58 with
 * its checksum is most of a rendering. Its slot: 30 bits of the first four bytes (random in a hash or a key).
 */
export function encodedId(prefix: Prefix, bytes: Uint8Array): string {
  if (bytes.length < 4) return encode(prefix, bytes);
  const head = (bytes[0]! << 22) | (bytes[1]! << 14) | (bytes[2]! << 6) | (bytes[3]! & 0x3f);
  return rememberedEncoding(encodedIdCache, head ^ prefixBits(prefix), prefix, bytes, MAX_ENTRIES);
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
  // FNV-1a of the bytes, in 30 bits (a field's bytes need not be random, nor differ in their first ones)
  let slot = 0x811c9dc5 ^ prefixBits(prefix);
  for (let i = 0; i < bytes.length; i++) slot = Math.imul(slot ^ bytes[i]!, 0x01000193);
  return rememberedEncoding(encodedFieldCache, (slot >>> 2) ^ bytes.length, prefix, bytes, FIELD_ENTRIES);
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
