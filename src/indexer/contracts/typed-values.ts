/**
 * @module FATE values with their kind, as ae_mdw stores a call's arguments and return value (contract.ex `fate_val`
 * with `to_map`): each value is `{type, value}`, the kind read from the value itself (no function signature needed).
 * aepp-calldata deserialises the bytes; its canonical mapper, which drops the kinds (a list and a tuple are both
 * arrays, an address a bare string), is swapped here for TypedMapper on one byte-array encoder of our own.
 */
import { ContractByteArrayEncoder } from '@aeternity/aepp-calldata';
import { encode, type Prefix } from '../../chain/encoding.ts';
import { encodedId } from '../../chain/id-cache.ts';
import type { Json } from '../../chain/json.ts';
import { withNativeChecksums } from './calldata-checksums.ts';

/** A FATE value as ae_mdw writes it: `int`, `bool`, `string`, `address`, `list`, `map`, `variant`, … and its value. */
export interface TypedValue {
  readonly type: string;
  readonly value: Json;
  readonly [key: string]: Json;
}

/** The FATE data objects of aepp-calldata (version 1.9) this mapper reads: each accepts a visitor. */
interface FateData {
  readonly name: string;
  accept(visitor: TypedMapper): unknown;
  valueOf(): unknown;
}
interface FateString extends FateData {
  toBytes(): Uint8Array;
}

/** The kind and prefix of each FATE address type (ae_mdw's fate_val has no case for a channel id: named so here). */
const ADDRESS_KINDS: Readonly<Record<string, readonly [string, Prefix]>> = {
  account_pubkey: ['address', 'ak'],
  contract_pubkey: ['contract', 'ct'],
  oracle_pubkey: ['oracle', 'ok'],
  oracle_query_id: ['oracle_query', 'oq'],
  channel: ['channel', 'ch'],
};

/** An integer as JSON: a number where exact, else a bigint (written digit for digit). */
const exactInt = (n: bigint): number | bigint => (Number.isSafeInteger(Number(n)) ? Number(n) : n);

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** A FATE string's text; bytes that are no UTF-8 as base64, as ae_mdw sends such a binary. */
function stringValue(bytes: Uint8Array): string {
  try {
    return UTF8.decode(bytes);
  } catch {
    return Buffer.from(bytes).toString('base64');
  }
}

/** bytesValue is ae_mdw's form of FATE bytes: the bytearray encoding (`ba_`). */
const bytesValue = (bytes: Uint8Array): TypedValue => ({ type: 'bytes', value: encode('ba', bytes) });

/**
 * TypedMapper is a visitor of aepp-calldata's FATE data that gives each value its kind (the canonical mapper's
 * counterpart). It keeps no state; one serves every call.
 */
class TypedMapper {
  toCanonical(data: FateData): unknown {
    return data.accept(this);
  }

  visitData(data: FateData): TypedValue {
    const value = data.valueOf();
    switch (data.name) {
      case 'int':
        return { type: 'int', value: exactInt(value as bigint) };
      case 'bits':
        return { type: 'bits', value: exactInt(value as bigint) };
      case 'bool':
        return { type: 'bool', value: value as boolean };
      case 'string':
        return { type: 'string', value: stringValue((data as FateString).toBytes()) };
      case 'bytes':
      case 'byte_array':
      case 'hash':
      case 'signature':
        return bytesValue(value as Uint8Array);
      default:
        throw new Error(`FATE value of an unexpected kind: ${data.name}`);
    }
  }

  visitAddress(data: FateData & { value: Uint8Array }): TypedValue {
    const kind = ADDRESS_KINDS[data.name];
    if (kind === undefined) throw new Error(`FATE address of an unexpected kind: ${data.name}`);
    return { type: kind[0], value: encodedId(kind[1], data.value) };
  }

  visitList(data: { items: FateData[] }): TypedValue {
    return { type: 'list', value: data.items.map((e) => e.accept(this) as TypedValue) };
  }

  visitSet(data: { items: FateData[] }): TypedValue {
    return this.visitList(data);
  }

  visitMap(data: { iterator: Iterable<[FateData, FateData]> }): TypedValue {
    const entries: Json[] = [];
    for (const [key, val] of data.iterator)
      entries.push({ key: key.accept(this) as TypedValue, val: val.accept(this) as TypedValue });
    return { type: 'map', value: entries };
  }

  /** the empty tuple is Sophia's unit, `""` (ae_mdw's empty binary) */
  visitTuple(data: { items: FateData[] }): TypedValue {
    if (data.items.length === 0) return { type: 'unit', value: '' };
    return { type: 'tuple', value: data.items.map((e) => e.accept(this) as TypedValue) };
  }

  /** a variant is its constructor's tag, then its arguments */
  visitVariant(data: { tag: number; value: FateData[] }): TypedValue {
    return { type: 'variant', value: [data.tag, ...data.value.map((e) => e.accept(this) as TypedValue)] };
  }

  visitBls12381Fr(data: FateData): TypedValue {
    return bytesValue(data.valueOf() as Uint8Array);
  }

  visitBls12381Fp(data: FateData): TypedValue {
    return bytesValue(data.valueOf() as Uint8Array);
  }

  visitCalldata(data: { functionId: Uint8Array; args: FateData[] }): TypedCallData {
    return {
      functionId: Buffer.from(data.functionId).toString('hex'),
      args: data.args.map((e) => e.accept(this) as TypedValue),
    };
  }
}

/** Call data decoded with kinds: the function's id (hex of its 4 bytes) and the typed arguments. */
export interface TypedCallData {
  readonly functionId: string;
  readonly args: TypedValue[];
}

/** The internals of aepp-calldata's ContractByteArrayEncoder (version 1.9) the mapper takes the place in. */
interface ByteArrayInternals {
  _internalEncoder?: { _canonicalMapper?: unknown };
}

/**
 * The one byte-array encoder that decodes with kinds. A later aepp-calldata without these internals fails here, at
 * load, and in the tests, not call by call.
 */
const TYPED_ENCODER = ((): ContractByteArrayEncoder => {
  const encoder = withNativeChecksums(new ContractByteArrayEncoder());
  const internal = (encoder as unknown as ByteArrayInternals)._internalEncoder;
  if (internal?._canonicalMapper === undefined)
    throw new Error('aepp-calldata has no canonical mapper to swap: typed call values cannot be decoded');
  internal._canonicalMapper = new TypedMapper();
  return encoder;
})();

/** FATE's calldata type without argument types: the arguments are read by their tags. */
const CALLDATA = { name: 'calldata' } as unknown as Parameters<ContractByteArrayEncoder['decodeWithType']>[1];

/** typedCallData decodes `cb_` call data into the called function's id and the typed arguments. */
export function typedCallData(callData: string): TypedCallData {
  return TYPED_ENCODER.decodeWithType(callData as `cb_${string}`, CALLDATA) as unknown as TypedCallData;
}

/** typedValue decodes one `cb_` FATE value (a call's return value, a revert's reason) with its kinds, by its tags. */
export function typedValue(data: string): TypedValue {
  return TYPED_ENCODER.decode(data as `cb_${string}`) as unknown as TypedValue;
}
