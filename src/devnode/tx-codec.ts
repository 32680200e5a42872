/** @module Transactions between the node's JSON (`tx` object of GenericSignedTx) and their signed binary form. Pure. */
import { decode, hash, type Prefix } from '../chain/encoding.ts';
import type { Json } from '../chain/json.ts';
import { encodeFlat, idBytes as cachedIdBytes } from './id-cache.ts';
import { bytesToInt, intToBytes, rlpDecode, rlpEncode, type RlpItem } from './rlp.ts';
import { ID_TAGS, SIGNED_TX_TAG, schemaFor, type FieldKind, type IdPrefix } from './tx-schema.ts';

/** TxFields is a transaction as the node shows it: `type`, `version` and the type's fields. */
export type TxFields = { [key: string]: Json };

/** TxCodecError says why a transaction cannot be serialised or parsed. */
export class TxCodecError extends Error {
  override readonly name = 'TxCodecError';
}

const PREFIX_BY_TAG = new Map<number, IdPrefix>(Object.entries(ID_TAGS).map(([p, t]) => [t, p as IdPrefix]));
const TTL_TYPES = ['delta', 'block'] as const;
const utf8 = new TextDecoder('utf-8');

/** jsonInt turns a bigint into a number when that loses nothing, as the node prints integers. */
export function jsonInt(value: bigint): number | bigint {
  return value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : value;
}

/** asInt reads a non-negative integer field (absent = 0), keeping safe integers as numbers. */
function asInt(value: Json | undefined, name: string): number | bigint {
  if (value === undefined) return 0;
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return value;
  if (typeof value === 'bigint' && value >= 0n) return value;
  if (typeof value === 'string' && /^\d+$/.test(value)) return BigInt(value);
  throw new TxCodecError(`${name} must be a non-negative integer`);
}

/** idBytes is the 33-byte binary id: the tag of the id's prefix, then its 32 bytes. */
function idBytes(value: Json | undefined, name: string): Uint8Array {
  if (typeof value !== 'string') throw new TxCodecError(`${name} must be an encoded id`);
  const tag = ID_TAGS[value.slice(0, 2) as IdPrefix];
  if (tag === undefined || value[2] !== '_') throw new TxCodecError(`${name} must be an ak_, nm_, cm_, ok_, ct_ or ch_ id`);
  const bytes = cachedIdBytes(value);
  if (bytes.length !== 32) throw new TxCodecError(`${name} must have 32 bytes`);
  return Buffer.concat([Uint8Array.of(tag), bytes]);
}

function idJson(bytes: RlpItem, name: string): string {
  if (!(bytes instanceof Uint8Array) || bytes.length !== 33) throw new TxCodecError(`${name} is not an id`);
  const prefix = PREFIX_BY_TAG.get(bytes[0]!);
  if (!prefix) throw new TxCodecError(`${name} has an unknown id tag ${bytes[0]}`);
  return encodeFlat(prefix, bytes.subarray(1));
}

function blob(item: RlpItem | undefined, name: string): Uint8Array {
  if (!(item instanceof Uint8Array)) throw new TxCodecError(`${name} must be a byte string`);
  return item;
}

function list(item: RlpItem | undefined, name: string): RlpItem[] {
  if (!Array.isArray(item)) throw new TxCodecError(`${name} must be a list`);
  return item;
}

function encodedBytes(value: Json | undefined, prefix: Prefix, name: string): Uint8Array {
  if (value === undefined || value === '') return new Uint8Array(0);
  if (typeof value !== 'string') throw new TxCodecError(`${name} must be a ${prefix}_ string`);
  return decode(value, [prefix]).bytes;
}

function ttlOf(value: Json | undefined, name: string): [number, number | bigint] {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new TxCodecError(`${name} must be {type, value}`);
  const type = TTL_TYPES.indexOf(value.type as (typeof TTL_TYPES)[number]);
  if (type < 0) throw new TxCodecError(`${name}.type must be delta or block`);
  return [type, asInt(value.value, `${name}.value`)];
}

function encodeField(tx: TxFields, name: string, kind: FieldKind, out: RlpItem[]): void {
  const value = tx[name];
  switch (kind) {
    case 'id': out.push(idBytes(value, name)); break;
    case 'int': out.push(intToBytes(asInt(value, name))); break;
    case 'ba': case 'cb': case 'st': out.push(encodedBytes(value, kind, name)); break;
    case 'str': out.push(Buffer.from(typeof value === 'string' ? value : '', 'utf8')); break;
    case 'oq': out.push(encodedBytes(value, 'oq', name)); break;
    case 'ttl': { const [t, v] = ttlOf(value, name); out.push(intToBytes(t), intToBytes(v)); break; }
    case 'ctVersion': out.push(intToBytes((BigInt(asInt(tx.vm_version, 'vm_version')) << 16n) | BigInt(asInt(tx.abi_version, 'abi_version')))); break;
    case 'ids': out.push((Array.isArray(value) ? value : []).map((id) => idBytes(id, name))); break;
    case 'delegates': {
      const d = value !== null && typeof value === 'object' && !Array.isArray(value) ? value : {};
      for (const side of ['initiator', 'responder']) out.push((Array.isArray(d[side]) ? d[side] : []).map((id) => idBytes(id, name)));
      break;
    }
    case 'pointers': {
      if (!Array.isArray(value)) throw new TxCodecError('pointers must be a list');
      out.push(value.map((p) => {
        if (p === null || typeof p !== 'object' || Array.isArray(p) || typeof p.key !== 'string') throw new TxCodecError('a pointer is {key, id}');
        return [Buffer.from(p.key, 'utf8'), idBytes(p.id, 'pointer id')];
      }));
      break;
    }
  }
}

/** encodeTx serialises an unsigned transaction: `rlp([tag, version, fields…])`. */
export function encodeTx(tx: TxFields): Uint8Array {
  const schema = schemaFor(String(tx.type), typeof tx.version === 'number' ? tx.version : undefined);
  if (!schema) throw new TxCodecError(`unsupported transaction type ${String(tx.type)}`);
  const items: RlpItem[] = [intToBytes(schema.tag), intToBytes(schema.version)];
  for (const [name, kind] of schema.fields) encodeField(tx, name, kind, items);
  return rlpEncode(items);
}

function decodeField(items: RlpItem[], at: number, name: string, kind: FieldKind, tx: TxFields): number {
  const item = items[at];
  switch (kind) {
    case 'id': tx[name] = idJson(blob(item, name), name); return at + 1;
    case 'int': tx[name] = jsonInt(bytesToInt(blob(item, name))); return at + 1;
    case 'ba': case 'cb': case 'st': tx[name] = encodeFlat(kind, blob(item, name)); return at + 1;
    case 'str': tx[name] = utf8.decode(blob(item, name)); return at + 1;
    case 'oq': tx[name] = encodeFlat('oq', blob(item, name)); return at + 1;
    case 'ttl': {
      const type = TTL_TYPES[Number(bytesToInt(blob(item, name)))];
      if (!type) throw new TxCodecError(`${name} has an unknown ttl type`);
      tx[name] = { type, value: jsonInt(bytesToInt(blob(items[at + 1], name))) };
      return at + 2;
    }
    case 'ctVersion': {
      const v = bytesToInt(blob(item, name));
      tx.vm_version = Number(v >> 16n);
      tx.abi_version = Number(v & 0xffffn);
      return at + 1;
    }
    case 'ids': tx[name] = list(item, name).map((id) => idJson(id, name)); return at + 1;
    case 'delegates':
      tx[name] = { initiator: list(item, name).map((id) => idJson(id, name)), responder: list(items[at + 1], name).map((id) => idJson(id, name)) };
      return at + 2;
    case 'pointers':
      tx[name] = list(item, name).map((p) => {
        const [key, id] = list(p, 'pointer');
        return { key: utf8.decode(blob(key, 'pointer key')), id: idJson(blob(id, 'pointer id'), 'pointer id') };
      });
      return at + 1;
  }
}

/** decodeTx parses an unsigned transaction into the node's JSON; `ttl` 0 is omitted as the node does. */
export function decodeTx(bytes: Uint8Array): TxFields {
  const items = list(rlpDecode(bytes), 'transaction');
  const tag = Number(bytesToInt(blob(items[0], 'tag')));
  const version = Number(bytesToInt(blob(items[1], 'version')));
  const schema = schemaFor(tag, version);
  if (!schema) throw new TxCodecError(`unsupported transaction tag ${tag} version ${version}`);
  const tx: TxFields = {};
  let at = 2;
  for (const [name, kind] of schema.fields) at = decodeField(items, at, name, kind, tx);
  if (at !== items.length) throw new TxCodecError(`${schema.type} has ${items.length - 2} fields, expected ${at - 2}`);
  if (tx.ttl === 0) delete tx.ttl;
  return { ...tx, type: schema.type, version };
}

/** encodeSignedTx wraps transaction bytes with their signatures (sorted, as the node keeps them). */
export function encodeSignedTx(signatures: readonly Uint8Array[], txBytes: Uint8Array): Uint8Array {
  const sorted = [...signatures].sort((a, b) => Buffer.compare(a, b));
  return rlpEncode([intToBytes(SIGNED_TX_TAG), intToBytes(1), sorted, txBytes]);
}

/** decodeSignedTx unwraps a signed transaction into its signatures and inner transaction bytes. */
export function decodeSignedTx(bytes: Uint8Array): { signatures: Uint8Array[]; txBytes: Uint8Array } {
  const items = list(rlpDecode(bytes), 'signed transaction');
  if (items.length !== 4 || Number(bytesToInt(blob(items[0], 'tag'))) !== SIGNED_TX_TAG) {
    throw new TxCodecError('not a signed transaction');
  }
  const signatures = list(items[2], 'signatures').map((s) => blob(s, 'signature'));
  return { signatures, txBytes: blob(items[3], 'transaction') };
}

/** txHash is the `th_` of a signed transaction: blake2b of its bytes. */
export function txHash(signedBytes: Uint8Array): string {
  return encodeFlat('th', hash(signedBytes));
}
