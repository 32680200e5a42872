/**
 * @module A compact binary form of the devnode's JSON values (a sealed transaction's call or GA info, tx-store.ts):
 * the node's keys as one byte, encoded ids (`ak_…`, `ct_…`, `cb_…`) as their prefix and payload, integers as varints
 * and bigints as their bytes, and a value the reader knows already as a reference to it (below). A call info with a
 * log takes about 260 bytes without references, 430 as v8.serialize writes it, and a chain of a tenth of mainnet keeps
 * millions of them. Lossless: a value reads back as it was written, an id only packed when its text is the one its
 * bytes encode to. Pure.
 */
import { DecodeError, decodeCanonical, encode, type Prefix } from '../../chain/encoding.ts';
import type { Json } from '../../chain/json.ts';

// the tags that open each value
const NULL = 0;
const FALSE = 1;
const TRUE = 2;
const INT = 3;
const NEG_INT = 4;
const FLOAT = 5;
const BIGINT = 6;
const NEG_BIGINT = 7;
const STRING = 8;
const ID = 9;
const ARRAY = 10;
const OBJECT = 11;
const REF = 12;

/** KEYS: the keys of the node's call and GA infos and transactions, each written as its index. */
const KEYS = [
  'caller_id',
  'caller_nonce',
  'height',
  'contract_id',
  'gas_price',
  'gas_used',
  'log',
  'return_value',
  'return_type',
  'address',
  'topics',
  'data',
  'inner_object',
  'call_info',
  'ga_info',
  'type',
  'version',
  'tx',
  'signatures',
  'nonce',
  'fee',
  'ttl',
] as const;
const KEY_INDEX = new Map<string, number>(KEYS.map((k, i) => [k, i]));

/** PREFIXES an id may have, each written as its index. */
const PREFIXES: readonly Prefix[] = [
  'ak',
  'ok',
  'ct',
  'ch',
  'nm',
  'cm',
  'oq',
  'kh',
  'mh',
  'bf',
  'bx',
  'bs',
  'th',
  'sg',
  'pp',
  'sk',
  'tx',
  'cb',
  'ba',
  'ov',
  'or',
  'st',
  'pi',
  'ss',
  'cs',
  'ck',
  'cv',
];
const PREFIX_INDEX = new Map<string, number>(PREFIXES.map((p, i) => [p, i]));

/** Writer appends bytes to a growing buffer, and keeps the values a reference may name (their first index). */
class Writer {
  #bytes = Buffer.allocUnsafe(256);
  #length = 0;
  readonly #refs = new Map<Json, number>();
  #refCount = 0;

  constructor(context: readonly Json[]) {
    for (const value of context) this.known(value);
  }

  /** known adds a value the reader will have at the next index (the context's, then each id written out). */
  known(value: Json): void {
    if (!this.#refs.has(value)) this.#refs.set(value, this.#refCount);
    this.#refCount++;
  }

  /** refOf is the index of a value the reader knows, when a reference is shorter than the value written out. */
  refOf(value: string | number | bigint): number | undefined {
    if (typeof value === 'number' && !(Number.isSafeInteger(value) && Math.abs(value) >= 0x80)) return undefined;
    if (value === '') return undefined;
    return this.#refs.get(value);
  }

  #room(n: number): void {
    if (this.#length + n <= this.#bytes.length) return;
    const next = Buffer.allocUnsafe(Math.max(this.#bytes.length * 2, this.#length + n));
    this.#bytes.copy(next, 0, 0, this.#length);
    this.#bytes = next;
  }

  byte(b: number): void {
    this.#room(1);
    this.#bytes[this.#length++] = b;
  }

  /** varint: seven bits a byte, low first (a safe integer's at most eight bytes) */
  varint(n: number): void {
    while (n >= 0x80) {
      this.byte((n % 0x80) | 0x80);
      n = Math.floor(n / 0x80);
    }
    this.byte(n);
  }

  raw(bytes: Uint8Array): void {
    this.varint(bytes.length);
    this.#room(bytes.length);
    this.#bytes.set(bytes, this.#length);
    this.#length += bytes.length;
  }

  double(n: number): void {
    this.#room(8);
    this.#bytes.writeDoubleLE(n, this.#length);
    this.#length += 8;
  }

  done(): Uint8Array {
    return this.#bytes.subarray(0, this.#length);
  }
}

function bigintBytes(n: bigint): Uint8Array {
  const hex = n.toString(16);
  return Buffer.from(hex.length % 2 === 0 ? hex : `0${hex}`, 'hex');
}

/** packedId is [prefix index, payload] of a string that is an encoded id in its canonical text, else undefined. */
function packedId(text: string): [number, Uint8Array] | undefined {
  if (text.length < 4 || text.charCodeAt(2) !== 95) return undefined;
  const index = PREFIX_INDEX.get(text.slice(0, 2));
  if (index === undefined) return undefined;
  try {
    const { bytes, canonical } = decodeCanonical(text, PREFIXES[index]!);
    return canonical ? [index, bytes] : undefined;
  } catch (err) {
    if (err instanceof DecodeError) return undefined;
    throw err;
  }
}

function write(w: Writer, value: Json): void {
  const ref = typeof value === 'object' || typeof value === 'boolean' ? undefined : w.refOf(value);
  if (ref !== undefined) {
    w.byte(REF);
    w.varint(ref);
  } else if (value === null) w.byte(NULL);
  else if (value === false) w.byte(FALSE);
  else if (value === true) w.byte(TRUE);
  else if (typeof value === 'number') {
    if (Number.isSafeInteger(value) && !Object.is(value, -0)) {
      w.byte(value >= 0 ? INT : NEG_INT);
      w.varint(value >= 0 ? value : -value);
    } else {
      w.byte(FLOAT);
      w.double(value);
    }
  } else if (typeof value === 'bigint') {
    w.byte(value >= 0n ? BIGINT : NEG_BIGINT);
    w.raw(bigintBytes(value >= 0n ? value : -value));
  } else if (typeof value === 'string') {
    const id = packedId(value);
    if (id) {
      w.byte(ID);
      w.byte(id[0]);
      w.raw(id[1]);
      w.known(value);
    } else {
      w.byte(STRING);
      w.raw(Buffer.from(value, 'utf8'));
    }
  } else if (Array.isArray(value)) {
    w.byte(ARRAY);
    w.varint(value.length);
    for (const item of value) write(w, item);
  } else {
    const entries = Object.entries(value);
    w.byte(OBJECT);
    w.varint(entries.length);
    for (const [key, item] of entries) {
      const known = KEY_INDEX.get(key);
      // a key of the list as its index, another as the list's length and its text
      w.varint(known ?? KEYS.length);
      if (known === undefined) w.raw(Buffer.from(key, 'utf8'));
      write(w, item);
    }
  }
}

/**
 * packJson is a value's packed bytes. A string, bigint or large integer equal to a value of `context` (values its
 * reader is given too: a sealed transaction's height and fields, tx-store.ts) or to an id written before it in the
 * value is written as a reference to it: a call info repeats its transaction's caller, contract, nonce and gas price,
 * and each of its logs the contract, most of its bytes.
 */
export function packJson(value: Json, context: readonly Json[] = []): Uint8Array {
  const w = new Writer(context);
  write(w, value);
  return w.done();
}

/** Reader walks packed bytes, and keeps the values a reference may name (as the writer numbered them). */
class Reader {
  readonly #bytes: Buffer;
  #at = 0;
  readonly refs: Json[];

  constructor(bytes: Uint8Array, context: readonly Json[]) {
    this.#bytes = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
    this.refs = [...context];
  }

  byte(): number {
    if (this.#at >= this.#bytes.length) throw new RangeError('packed JSON ends early');
    return this.#bytes[this.#at++]!;
  }

  varint(): number {
    let n = 0;
    for (let scale = 1; ; scale *= 0x80) {
      const b = this.byte();
      n += (b & 0x7f) * scale;
      if (b < 0x80) return n;
    }
  }

  raw(): Buffer {
    const length = this.varint();
    const at = this.#at;
    this.#at += length;
    if (this.#at > this.#bytes.length) throw new RangeError('packed JSON ends early');
    return this.#bytes.subarray(at, this.#at);
  }

  double(): number {
    const n = this.#bytes.readDoubleLE(this.#at);
    this.#at += 8;
    return n;
  }
}

function read(r: Reader): Json {
  const tag = r.byte();
  switch (tag) {
    case NULL:
      return null;
    case FALSE:
      return false;
    case TRUE:
      return true;
    case INT:
      return r.varint();
    case NEG_INT:
      return -r.varint();
    case FLOAT:
      return r.double();
    case BIGINT:
    case NEG_BIGINT: {
      const n = BigInt(`0x${r.raw().toString('hex') || '0'}`);
      return tag === BIGINT ? n : -n;
    }
    case STRING:
      return r.raw().toString('utf8');
    case ID: {
      const prefix = PREFIXES[r.byte()]!;
      const id = encode(prefix, r.raw());
      r.refs.push(id);
      return id;
    }
    case REF: {
      const at = r.varint();
      if (at >= r.refs.length) throw new RangeError(`packed JSON refers to value ${at} of ${r.refs.length}`);
      return r.refs[at]!;
    }
    case ARRAY:
      return Array.from({ length: r.varint() }, () => read(r));
    case OBJECT: {
      const object: { [k: string]: Json } = {};
      for (let n = r.varint(); n > 0; n--) {
        const k = r.varint();
        const key = k < KEYS.length ? KEYS[k]! : r.raw().toString('utf8');
        // an own property even for `__proto__`, as JSON.parse makes it
        Object.defineProperty(object, key, { value: read(r), enumerable: true, writable: true, configurable: true });
      }
      return object;
    }
    default:
      throw new RangeError(`packed JSON has no tag ${String(tag)}`);
  }
}

/** unpackJson is the value packed in `bytes`, given the `context` it was packed with. */
export function unpackJson(bytes: Uint8Array, context: readonly Json[] = []): Json {
  return read(new Reader(bytes, context));
}
