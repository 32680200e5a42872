/**
 * @module FATE values and types in the node's binary serialisation (aeb_fate_encoding): what the devnode's native
 * contracts read from calldata and write as return values and bytecode type tables, and what the indexer reads of
 * the node's dry-run answers without their contract's type table (a hyperchain's validator states). Only the kinds
 * the token, NFT, DEX and hyperchain contracts use: bytes of another kind fail to decode, never read as another value.
 * Pure.
 */
import { decode, encode } from './encoding.ts';
import { encodedId, idBytes } from './id-cache.ts';
import { bytesToInt, intToBytes, rlpEncode } from './rlp.ts';

/** FateAddress is an account address (`ak_`, FATE `address`) or a contract (`ct_`, FATE `contract`). */
export interface FateAddress {
  readonly kind: 'address';
  readonly id: string;
}
/** FateTuple is a tuple (a record is the tuple of its fields); the empty tuple is unit. */
export interface FateTuple {
  readonly kind: 'tuple';
  readonly items: readonly FateValue[];
}
/** FateMap holds its entries in any order; serialisation sorts them by key. */
export interface FateMap {
  readonly kind: 'map';
  readonly entries: readonly (readonly [FateValue, FateValue])[];
}
/** FateVariant is constructor `tag` of a datatype whose constructors take `arities` arguments. */
export interface FateVariant {
  readonly kind: 'variant';
  readonly arities: readonly number[];
  readonly tag: number;
  readonly values: readonly FateValue[];
}
/** FateBytes is a value of Sophia's `bytes(n)` or `bytes()` (hashes, signatures, seeds): a FATE object, not a string. */
export interface FateBytes {
  readonly kind: 'bytes';
  readonly bytes: Uint8Array;
}
/** FateValue: int (bigint), bool, string, a string's bytes (Uint8Array), list (array) and the kinds above. */
export type FateValue =
  | bigint
  | boolean
  | string
  | Uint8Array
  | readonly FateValue[]
  | FateAddress
  | FateTuple
  | FateMap
  | FateVariant
  | FateBytes;

/** FateType is a type of the type table: arguments and return types of functions. */
export type FateType =
  | 'int'
  | 'bool'
  | 'string'
  | 'address'
  | 'contract'
  | { readonly list: FateType }
  | { readonly tuple: readonly FateType[] }
  | { readonly map: readonly [FateType, FateType] }
  | { readonly variant: readonly (readonly FateType[])[] }
  /** `bytes(n)`, or `bytes()` of any size */
  | { readonly bytes: number | 'any' }
  /** a Sophia record: a tuple of its fields in the type table, named in the ACI */
  | { readonly record: string; readonly fields: readonly (readonly [name: string, type: FateType])[] };

export const address = (id: string): FateAddress => ({ kind: 'address', id });
export const tuple = (...items: FateValue[]): FateTuple => ({ kind: 'tuple', items });
export const UNIT = tuple();
export const fateMap = (entries: readonly (readonly [FateValue, FateValue])[]): FateMap => ({ kind: 'map', entries });
export const NONE: FateVariant = { kind: 'variant', arities: [0, 1], tag: 0, values: [] };
export const some = (value: FateValue): FateVariant => ({ kind: 'variant', arities: [0, 1], tag: 1, values: [value] });
/** option is Some(value), or None when the value is undefined. */
export const option = (value: FateValue | undefined): FateVariant => (value === undefined ? NONE : some(value));
export const optionType = (t: FateType): FateType => ({ variant: [[], [t]] });
export const fateBytes = (bytes: Uint8Array): FateBytes => ({ kind: 'bytes', bytes });

/** Tags of aeb_fate_encoding. */
const T = {
  LONG_STRING: 0x01,
  LONG_TUPLE: 0x0b,
  LONG_LIST: 0x1f,
  MAP: 0x2f,
  EMPTY_TUPLE: 0x3f,
  EMPTY_STRING: 0x5f,
  POS_BIG_INT: 0x6f,
  FALSE: 0x7f,
  OBJECT: 0x9f,
  VARIANT: 0xaf,
  NEG_BIG_INT: 0xef,
  TRUE: 0xff,
} as const;
const TYPE = {
  int: 0x07,
  bool: 0x17,
  list: 0x27,
  tuple: 0x37,
  object: 0x47,
  map: 0x67,
  string: 0x77,
  variant: 0x87,
  bytes: 0x97,
} as const;
const OTYPE_ADDRESS = 0;
const OTYPE_BYTES = 1;
const OTYPE_CONTRACT = 2;

/** isKind tells a FATE value of one of the object kinds (address, tuple, map, variant, bytes). */
export function isKind<K extends string>(v: FateValue | undefined, kind: K): v is Extract<FateValue, { kind: K }> {
  return (
    typeof v === 'object' && !Array.isArray(v) && !(v instanceof Uint8Array) && (v as { kind: string }).kind === kind
  );
}

function intBytes(value: bigint): number[] {
  const abs = value < 0n ? -value : value;
  if (abs < 64n) return [(value < 0n ? 0x80 : 0) | (Number(abs) << 1)];
  return [value < 0n ? T.NEG_BIG_INT : T.POS_BIG_INT, ...rlpEncode(intToBytes(abs - 64n))];
}

function bytesValue(bytes: Uint8Array): number[] {
  if (bytes.length === 0) return [T.EMPTY_STRING];
  if (bytes.length < 64) return [(bytes.length << 2) | 0x01, ...bytes];
  // the current encoding prefixes a long string with its length − 64 as a FATE integer
  return [T.LONG_STRING, ...intBytes(BigInt(bytes.length - 64)), ...bytes];
}

function sequence(short: number, long: number, limit: number, count: number): number[] {
  return count < limit ? [(count << 4) | short] : [long, ...rlpEncode(intToBytes(count - limit))];
}

/**
 * compareValues is FATE's term order for the keys the standards use (ints, strings, addresses, tuples); other keys
 * compare by their binary form, which `bytesOf` gives (a map's sort serializes each key once, not per comparison).
 */
export function compareValues(a: FateValue, b: FateValue, bytesOf = serializeValue): number {
  if (typeof a === 'bigint' && typeof b === 'bigint') return a < b ? -1 : a > b ? 1 : 0;
  if (isKind(a, 'tuple') && isKind(b, 'tuple')) {
    if (a.items.length !== b.items.length) return a.items.length - b.items.length;
    for (let i = 0; i < a.items.length; i++) {
      const c = compareValues(a.items[i]!, b.items[i]!, bytesOf);
      if (c !== 0) return c;
    }
    return 0;
  }
  return Buffer.compare(bytesOf(a), bytesOf(b));
}

/** sortedEntries is a map's entries in its keys' term order. */
function sortedEntries(entries: readonly (readonly [FateValue, FateValue])[]): (readonly [FateValue, FateValue])[] {
  const serialized = new Map<FateValue, Uint8Array>();
  const bytesOf = (v: FateValue): Uint8Array => {
    let bytes = serialized.get(v);
    if (!bytes) serialized.set(v, (bytes = serializeValue(v)));
    return bytes;
  };
  return [...entries].sort(([a], [b]) => compareValues(a, b, bytesOf));
}

function write(value: FateValue, out: number[]): void {
  if (typeof value === 'bigint') out.push(...intBytes(value));
  else if (typeof value === 'boolean') out.push(value ? T.TRUE : T.FALSE);
  else if (typeof value === 'string') out.push(...bytesValue(Buffer.from(value, 'utf8')));
  else if (value instanceof Uint8Array) out.push(...bytesValue(value));
  else if (Array.isArray(value)) {
    out.push(...sequence(0x03, T.LONG_LIST, 16, value.length));
    for (const v of value) write(v, out);
  } else if (isKind(value, 'address')) {
    const otype = value.id.startsWith('ct_') ? OTYPE_CONTRACT : OTYPE_ADDRESS;
    out.push(T.OBJECT, otype, ...rlpEncode(idBytes(value.id)));
  } else if (isKind(value, 'tuple')) {
    if (value.items.length === 0) out.push(T.EMPTY_TUPLE);
    else out.push(...sequence(0x0b, T.LONG_TUPLE, 16, value.items.length));
    for (const v of value.items) write(v, out);
  } else if (isKind(value, 'map')) {
    out.push(T.MAP, ...rlpEncode(intToBytes(value.entries.length)));
    for (const [k, v] of sortedEntries(value.entries)) {
      write(k, out);
      write(v, out);
    }
  } else if (isKind(value, 'variant')) {
    out.push(T.VARIANT, ...rlpEncode(Uint8Array.from(value.arities)), value.tag);
    write(tuple(...value.values), out);
  } else if (isKind(value, 'bytes')) {
    out.push(T.OBJECT, OTYPE_BYTES, ...bytesValue(value.bytes));
  }
}

/** serializeValue is the node's binary form of a FATE value. */
export function serializeValue(value: FateValue): Uint8Array {
  const out: number[] = [];
  write(value, out);
  return Uint8Array.from(out);
}

/** encodeValue is a FATE value as the API prints it (`cb_…`): return values, calldata. */
export function encodeValue(value: FateValue): string {
  return encode('cb', serializeValue(value));
}

/** serializeType is the node's binary form of a type (aeb_fate_encoding:serialize_type). */
export function serializeType(type: FateType): number[] {
  if (typeof type === 'string') {
    if (type === 'address') return [TYPE.object, OTYPE_ADDRESS];
    if (type === 'contract') return [TYPE.object, OTYPE_CONTRACT];
    return [TYPE[type]];
  }
  if ('list' in type) return [TYPE.list, ...serializeType(type.list)];
  if ('tuple' in type) return [TYPE.tuple, type.tuple.length, ...type.tuple.flatMap(serializeType)];
  if ('map' in type) return [TYPE.map, ...serializeType(type.map[0]), ...serializeType(type.map[1])];
  // the node writes the size of `bytes()` (any size) as -1
  if ('bytes' in type) return [TYPE.bytes, ...intBytes(BigInt(type.bytes === 'any' ? -1 : type.bytes))];
  if ('record' in type) return serializeType({ tuple: type.fields.map(([, t]) => t) });
  return [TYPE.variant, type.variant.length, ...type.variant.flatMap((args) => serializeType({ tuple: args }))];
}

/** FateDecodeError says why bytes are not a FATE value this codec reads: malformed, or of a kind it does not know. */
export class FateDecodeError extends Error {
  override readonly name = 'FateDecodeError';
}

/** Reader walks serialised FATE values. */
class Reader {
  #at = 0;
  readonly bytes: Uint8Array;

  constructor(bytes: Uint8Array) {
    this.bytes = bytes;
  }

  get done(): boolean {
    return this.#at >= this.bytes.length;
  }

  #byte(): number {
    if (this.#at >= this.bytes.length) throw new FateDecodeError('truncated FATE value');
    return this.bytes[this.#at++]!;
  }

  #take(n: number): Uint8Array {
    if (this.#at + n > this.bytes.length) throw new FateDecodeError('truncated FATE value');
    const out = this.bytes.subarray(this.#at, this.#at + n);
    this.#at += n;
    return out;
  }

  /** #rlpBytes reads one RLP byte string (the node's RLP-encoded integers and arities). */
  #rlpBytes(): Uint8Array {
    const first = this.#byte();
    if (first < 0x80) return Uint8Array.of(first);
    if (first <= 0xb7) return this.#take(first - 0x80);
    if (first <= 0xbf) return this.#take(Number(bytesToInt(this.#take(first - 0xb7))));
    throw new FateDecodeError('expected an RLP byte string');
  }

  #rlpInt(): number {
    return Number(bytesToInt(this.#rlpBytes()));
  }

  /**
   * #count is the size a list, tuple or map announces, refused when the bytes left cannot hold it (each value takes
   * one at least): a malformed size must fail as a decode error, not allocate or overflow on the way.
   */
  #count(n: number, bytesEach = 1): number {
    if (n * bytesEach > this.bytes.length - this.#at) throw new FateDecodeError('truncated FATE value');
    return n;
  }

  #many(n: number): FateValue[] {
    const values = new Array<FateValue>(this.#count(n));
    for (let i = 0; i < n; i++) values[i] = this.value();
    return values;
  }

  /** #tuple is built from its items as they are, not spread into `tuple()` (a long one would overflow the stack). */
  #tuple(n: number): FateTuple {
    return { kind: 'tuple', items: this.#many(n) };
  }

  value(): FateValue {
    const tag = this.#byte();
    if ((tag & 0x01) === 0) return BigInt(((tag >> 1) & 0x3f) * (tag & 0x80 ? -1 : 1));
    if ((tag & 0x03) === 0x01 && tag !== T.LONG_STRING) return this.#string(tag >> 2);
    if ((tag & 0x0f) === 0x03) return this.#many(tag >> 4);
    if ((tag & 0x0f) === 0x0b && tag !== T.LONG_TUPLE) return this.#tuple(tag >> 4);
    switch (tag) {
      case T.LONG_STRING: {
        const length = this.value();
        if (typeof length !== 'bigint' || length < 0n) throw new FateDecodeError('malformed long string');
        return this.#string(Number(length) + 64);
      }
      case T.LONG_TUPLE:
        return this.#tuple(this.#rlpInt() + 16);
      case T.LONG_LIST:
        return this.#many(this.#rlpInt() + 16);
      case T.EMPTY_TUPLE:
        return UNIT;
      case T.EMPTY_STRING:
        return '';
      case T.TRUE:
        return true;
      case T.FALSE:
        return false;
      case T.POS_BIG_INT:
        return bytesToInt(this.#rlpBytes()) + 64n;
      case T.NEG_BIG_INT:
        return -(bytesToInt(this.#rlpBytes()) + 64n);
      case T.MAP: {
        const n = this.#count(this.#rlpInt(), 2);
        return fateMap(Array.from({ length: n }, () => [this.value(), this.value()] as const));
      }
      case T.OBJECT: {
        const otype = this.#byte();
        if (otype === OTYPE_BYTES) {
          const bytes = this.value();
          if (bytes === '') return fateBytes(new Uint8Array(0));
          if (!(bytes instanceof Uint8Array)) throw new FateDecodeError('malformed FATE bytes');
          return fateBytes(bytes);
        }
        const prefix = otype === OTYPE_ADDRESS ? 'ak' : otype === OTYPE_CONTRACT ? 'ct' : undefined;
        if (!prefix) throw new FateDecodeError(`unsupported FATE object type ${otype}`);
        const key = this.#rlpBytes();
        if (key.length !== 32) throw new FateDecodeError('an address has 32 bytes');
        return address(encodedId(prefix, key));
      }
      case T.VARIANT: {
        const arities = [...this.#rlpBytes()];
        const variantTag = this.#byte();
        const values = this.value();
        if (!isKind(values, 'tuple') || variantTag >= arities.length || arities[variantTag] !== values.items.length)
          throw new FateDecodeError('malformed FATE variant');
        return { kind: 'variant', arities, tag: variantTag, values: values.items };
      }
      default:
        throw new FateDecodeError(`unsupported FATE tag 0x${tag.toString(16)}`);
    }
  }

  /** Strings stay bytes here: function ids are bytes, and the caller knows which arguments are text. */
  #string(n: number): Uint8Array {
    return this.#take(n);
  }
}

/** deserializeValue reads one FATE value spanning all of `bytes` (strings come back as bytes). */
export function deserializeValue(bytes: Uint8Array): FateValue {
  const reader = new Reader(bytes);
  const value = reader.value();
  if (!reader.done) throw new FateDecodeError('trailing bytes after the FATE value');
  return value;
}

/** decodeValue reads a FATE value as the API prints it (`cb_…`): a return value, calldata (strings come back as bytes). */
export function decodeValue(encoded: string): FateValue {
  let bytes: Uint8Array;
  try {
    bytes = decode(encoded, ['cb']).bytes;
  } catch (err) {
    throw new FateDecodeError(`not a cb_ string: ${(err as Error).message}`);
  }
  return deserializeValue(bytes);
}

/** CallData is a decoded call: the 4-byte function id and the arguments. */
export interface CallData {
  readonly functionId: string;
  readonly args: readonly FateValue[];
}

/** decodeCallData reads calldata (`cb_…`: the tuple of a function id and the tuple of arguments). */
export function decodeCallData(callData: string): CallData {
  const value = decodeValue(callData);
  if (!isKind(value, 'tuple') || value.items.length !== 2) throw new FateDecodeError('calldata is not a call tuple');
  const [id, args] = value.items;
  if (!(id instanceof Uint8Array) || id.length !== 4 || !isKind(args, 'tuple'))
    throw new FateDecodeError('calldata is not a call tuple');
  return { functionId: Buffer.from(id).toString('hex'), args: args.items };
}

/** encodeCallData is calldata calling the function with this 4-byte id (hex). */
export function encodeCallData(functionId: string, args: readonly FateValue[]): string {
  return encodeValue(tuple(Buffer.from(functionId, 'hex'), tuple(...args)));
}
