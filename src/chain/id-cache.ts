/**
 * @module Fast id encoding and memoised id decoding for hot paths (devnode generation and serving,
 * tx serialisation). Same results as encoding.ts (a test pins that), but its Base58 encoder is
 * slower and builds its output a character at a time, which V8 keeps as a rope of ~40 nodes
 * (≈1.5 KB per stored id); here Base58 works on base-58^5 limbs and the result is flat.
 */
import { hash as nodeHash } from 'node:crypto';
import { decode, type Prefix } from './encoding.ts';

const MAX_ENTRIES = 100_000;
const bytesCache = new Map<string, Uint8Array>();
const reprefixCache = new Map<string, string>();
const taggedCache = new Map<string, Uint8Array>();
const BASE64_PREFIXES = new Set<Prefix>(['tx', 'cb', 'ba', 'ov', 'or', 'st', 'pi', 'ss', 'cs', 'ck', 'cv']);
const ALPHABET = Buffer.from('123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz', 'latin1');
const LIMB = 58 ** 5;

function remember<V>(cache: Map<string, V>, key: string, value: V): V {
  if (cache.size >= MAX_ENTRIES) cache.clear();
  cache.set(key, value);
  return value;
}

/** base58 encodes bytes in the Bitcoin alphabet (leading zero bytes become '1's); limbs are base 58^5. */
export function base58(bytes: Uint8Array): string {
  let zeros = 0;
  while (zeros < bytes.length && bytes[zeros] === 0) zeros++;
  const limbs: number[] = [];
  for (let i = zeros; i < bytes.length; i++) {
    let carry = bytes[i]!;
    for (let j = 0; j < limbs.length; j++) {
      const v = limbs[j]! * 256 + carry;
      carry = Math.floor(v / LIMB);
      limbs[j] = v - carry * LIMB;
    }
    for (; carry > 0; carry = Math.floor(carry / LIMB)) limbs.push(carry % LIMB);
  }
  const out = Buffer.alloc(zeros + limbs.length * 5, ALPHABET[0]);
  let end = out.length;
  limbs.forEach((limb, j) => {
    for (let k = 0, v = limb; k < 5 && (v > 0 || j < limbs.length - 1); k++, v = Math.floor(v / 58)) out[--end] = ALPHABET[v % 58]!;
  });
  return out.toString('latin1', end - zeros);
}

/** encodeFlat is chain/encoding.ts's `encode`, faster, with a flat result (for ids the devnode stores). */
export function encodeFlat(prefix: Prefix, bytes: Uint8Array): string {
  const check = nodeHash('sha256', nodeHash('sha256', bytes, 'buffer'), 'buffer').subarray(0, 4);
  const payload = Buffer.concat([bytes, check]);
  return `${prefix}_${BASE64_PREFIXES.has(prefix) ? payload.toString('base64') : base58(payload)}`;
}

/** idBytes is the payload of an encoded id (checked by `decode` the first time it is seen). */
export function idBytes(id: string): Uint8Array {
  return bytesCache.get(id) ?? remember(bytesCache, id, decode(id).bytes);
}

/** taggedIdBytes is the node's binary id, `tag` then the id's payload (the caller picks the tag of its prefix). */
export function taggedIdBytes(id: string, tag: number): Uint8Array {
  return taggedCache.get(id) ?? remember(taggedCache, id, Buffer.concat([Uint8Array.of(tag), idBytes(id)]));
}

/** withPrefix is the same 32 bytes under another prefix (`ak_X` → `ok_X`). */
export function withPrefix(id: string, prefix: Prefix): string {
  if (id.startsWith(`${prefix}_`)) return id;
  const key = `${prefix}:${id}`;
  return reprefixCache.get(key) ?? remember(reprefixCache, key, encodeFlat(prefix, idBytes(id)));
}

/** flat copies a string into one flat V8 string (for strings other encoders built as ropes). */
export function flat(text: string): string {
  return Buffer.from(text, 'latin1').toString('latin1');
}
