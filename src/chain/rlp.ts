/** @module Recursive length prefix encoding (the node's binary serialisation), with the node's integer rules. Pure. */

/** RlpItem is a byte string or a list of items. */
export type RlpItem = Uint8Array | RlpItem[];

/** RlpError says why bytes are not one well-formed RLP item. */
export class RlpError extends Error {
  override readonly name = 'RlpError';
}

/** headerLength is the size of the header of a string or list whose content is `length` bytes. */
function headerLength(length: number): number {
  return length < 56 ? 1 : length < 0x100 ? 2 : length < 0x10000 ? 3 : length < 0x1000000 ? 4 : 5;
}

/** writeHeader writes a header at `at` and returns where the content starts. */
function writeHeader(out: Uint8Array, at: number, short: number, long: number, length: number): number {
  if (length < 56) {
    out[at] = short + length;
    return at + 1;
  }
  const size = headerLength(length) - 1;
  out[at] = long + size;
  for (let i = size; i > 0; i--) out[at + i] = (length >>> (8 * (size - i))) & 0xff;
  return at + 1 + size;
}

/**
 * measure is the encoded size of an item, and pushes the content size of each list in it in the order encodeInto
 * writes them: the bytes are then written once into one buffer, with no header or part allocated on the way (the
 * writer serialises every transaction of the chain).
 */
function measure(item: RlpItem, listSizes: number[]): number {
  if (item instanceof Uint8Array) {
    return item.length === 1 && item[0]! < 0x80 ? 1 : headerLength(item.length) + item.length;
  }
  const slot = listSizes.length;
  listSizes.push(0);
  let length = 0;
  for (const child of item) length += measure(child, listSizes);
  listSizes[slot] = length;
  return headerLength(length) + length;
}

/** encodeInto writes an item at `at`, taking its lists' sizes from `sizes` (from `sizes.next` on) as measured. */
function encodeInto(item: RlpItem, out: Uint8Array, at: number, sizes: { list: number[]; next: number }): number {
  if (item instanceof Uint8Array) {
    if (item.length === 1 && item[0]! < 0x80) {
      out[at] = item[0]!;
      return at + 1;
    }
    const start = writeHeader(out, at, 0x80, 0xb7, item.length);
    out.set(item, start);
    return start + item.length;
  }
  let pos = writeHeader(out, at, 0xc0, 0xf7, sizes.list[sizes.next++]!);
  for (const child of item) pos = encodeInto(child, out, pos, sizes);
  return pos;
}

/** rlpEncode serialises an item tree. */
export function rlpEncode(item: RlpItem): Uint8Array {
  const list: number[] = [];
  const out = Buffer.allocUnsafe(measure(item, list));
  encodeInto(item, out, 0, { list, next: 0 });
  return out;
}

/**
 * rlpLength is the encoded size of a byte string or a list whose content is `length` bytes (a byte string longer
 * than one byte): the same header size for both, counted rather than built (the indexer measures every field).
 */
export function rlpLength(length: number): number {
  return headerLength(length) + length;
}

function readLength(bytes: Uint8Array, at: number, size: number): number {
  if (at + size > bytes.length) throw new RlpError('truncated length');
  if (size > 0 && bytes[at] === 0) throw new RlpError('length with leading zero');
  let n = 0;
  for (let i = 0; i < size; i++) n = n * 256 + bytes[at + i]!;
  return n;
}

/** The one-byte integers, made once: most of a transaction's integers (tags, versions, small amounts) are one byte. */
const ONE_BYTE: readonly Uint8Array[] = Array.from({ length: 256 }, (_, v) => Uint8Array.of(v));

/** The empty byte string (a ttl or nonce of 0, an empty payload), made once. */
const EMPTY = new Uint8Array(0);

/**
 * decodedEnd is where the item decodeAt read last ends: decoding is synchronous, so one variable serves every call,
 * where an [item, end] pair per item allocated as many objects again as the items themselves (the populator decodes
 * every transaction it renders back and every stored one it derives balances from).
 */
let decodedEnd = 0;

/**
 * shared says whether the decoding under way answers its empty and one-byte strings with the shared ONE_BYTE and
 * EMPTY (callers read items, never change them) rather than a view each: tags, versions, small integers and empty
 * fields are half of a transaction's byte strings (the 714 of the recorded node's). Only for a plain Uint8Array: the
 * items of a Buffer are Buffers, whose methods (`toString('hex')`) a plain array answers differently.
 */
let shared = false;

/** byteString is bytes start..end of `bytes` as an item. */
function byteString(bytes: Uint8Array, start: number, end: number): Uint8Array {
  if (shared && end - start <= 1) return end === start ? EMPTY : ONE_BYTE[bytes[start]!]!;
  return bytes.subarray(start, end);
}

/** decodeAt reads the item at `at`, and leaves where it ends in decodedEnd. */
function decodeAt(bytes: Uint8Array, at: number): RlpItem {
  if (at >= bytes.length) throw new RlpError('truncated item');
  const first = bytes[at]!;
  if (first < 0x80) {
    decodedEnd = at + 1;
    return byteString(bytes, at, at + 1);
  }
  let start: number;
  let length: number;
  const isList = first >= 0xc0;
  const base = isList ? 0xc0 : 0x80;
  if (first - base < 56) {
    start = at + 1;
    length = first - base;
  } else {
    const size = first - base - 55;
    length = readLength(bytes, at + 1, size);
    start = at + 1 + size;
  }
  const end = start + length;
  if (end > bytes.length) throw new RlpError('item longer than its input');
  if (!isList) {
    decodedEnd = end;
    return byteString(bytes, start, end);
  }
  const items: RlpItem[] = [];
  let pos = start;
  while (pos < end) {
    items.push(decodeAt(bytes, pos));
    pos = decodedEnd;
  }
  if (pos !== end) throw new RlpError('list content overruns its length');
  decodedEnd = end;
  return items;
}

/**
 * rlpDecode parses exactly one item spanning all of `bytes`. Its byte strings are views of `bytes` (of its type), or,
 * for a plain Uint8Array, shared ones when empty or of one byte: read them, never change them.
 */
export function rlpDecode(bytes: Uint8Array): RlpItem {
  shared = Object.getPrototypeOf(bytes) === Uint8Array.prototype;
  const item = decodeAt(bytes, 0);
  if (decodedEnd !== bytes.length) throw new RlpError('trailing bytes after the item');
  return item;
}

/**
 * intToBytes is the node's unsigned big-endian integer with no leading zeros; 0 is one 0x00 byte. A one-byte result is
 * shared (callers read it, as rlpEncode does, and never change it); a safe integer takes no bigint on the way (fees
 * and amounts are above 2^32).
 */
export function intToBytes(value: bigint | number): Uint8Array {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) {
    if (value < 256) return ONE_BYTE[value]!;
    let n = 0;
    for (let v = value; v > 0; v = Math.floor(v / 256)) n++;
    const out = new Uint8Array(n);
    for (let i = n - 1, v = value; i >= 0; i--, v = Math.floor(v / 256)) out[i] = v % 256;
    return out;
  }
  const v = BigInt(value);
  if (v < 0n) throw new RangeError('negative integers have no serialisation');
  if (v < 256n) return ONE_BYTE[Number(v)]!;
  const hex = v.toString(16);
  return Buffer.from(hex.length % 2 === 0 ? hex : `0${hex}`, 'hex');
}

/**
 * bytesToInt reads an unsigned big-endian integer (empty bytes read as 0), six bytes at a time as a double (exact
 * below 2^53) and one BigInt step per six bytes: byte by byte, a stake's ten bytes took 400 ns, the most of reading a
 * hyperchain validator's state (chain/fate.ts); 80 ns so.
 */
export function bytesToInt(bytes: Uint8Array): bigint {
  // the first chunk takes the bytes above a multiple of six, every later one six
  let end = bytes.length % 6 || Math.min(6, bytes.length);
  let v = BigInt(chunkValue(bytes, 0, end));
  for (let start = end; start < bytes.length; start = end) {
    end = start + 6;
    v = (v << 48n) | BigInt(chunkValue(bytes, start, end));
  }
  return v;
}

function chunkValue(bytes: Uint8Array, start: number, end: number): number {
  let n = 0;
  for (let i = start; i < end; i++) n = n * 256 + bytes[i]!;
  return n;
}
