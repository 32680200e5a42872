/**
 * @module Transactions from the node's JSON (the `tx` object of GenericSignedTx) to their binary
 * form: `rlp([tag, version, fields…])`, signed `rlp([11, 1, [signatures], tx_bytes])`, and the `th_`
 * hash. The one serialiser the devnode and the indexer share. Pure.
 */
import { encode, decode, hash, type Prefix } from './encoding.ts';
import type { Json } from './json.ts';
import { idBytes as cachedIdBytes, taggedIdBytes } from './id-cache.ts';
import { intToBytes, rlpEncode, rlpLength, type RlpItem } from './rlp.ts';
import {
  ID_TAGS,
  OFF_CHAIN_CALL_FIELDS,
  OFF_CHAIN_CALL_TAG,
  SIGNED_TX_TAG,
  schemaFor,
  type FieldKind,
  type IdPrefix,
} from './tx-schema.ts';

/** TxFields is a transaction as the node shows it: `type`, `version` and the type's fields. */
export type TxFields = { [key: string]: Json };

/** TxCodecError says why a transaction cannot be serialised or parsed. */
export class TxCodecError extends Error {
  override readonly name = 'TxCodecError';
}

/** TTL_TYPES are the ttl kinds in the order of their binary code (0 delta, 1 block). */
export const TTL_TYPES = ['delta', 'block'] as const;

/** asInt reads a non-negative integer field (absent = 0); node < 4.0 printed versions as hex strings ("0x0004"). */
function asInt(value: Json | undefined, name: string): number | bigint {
  if (value === undefined) return 0;
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return value;
  if (typeof value === 'bigint' && value >= 0n) return value;
  if (typeof value === 'string' && /^(\d+|0x[0-9a-fA-F]+)$/.test(value)) return BigInt(value);
  throw new TxCodecError(`${name} must be a non-negative integer`);
}

/** idTag is the binary tag of an id's prefix. */
function idTag(value: Json | undefined, name: string): number {
  if (typeof value !== 'string') throw new TxCodecError(`${name} must be an encoded id`);
  const tag = ID_TAGS[value.slice(0, 2) as IdPrefix];
  if (tag === undefined || value[2] !== '_')
    throw new TxCodecError(`${name} must be an ak_, nm_, cm_, ok_, ct_ or ch_ id`);
  return tag;
}

/** idBytes is the 33-byte binary id: the tag of the id's prefix, then its 32 bytes. */
function idBytes(value: Json | undefined, name: string): Uint8Array {
  const tag = idTag(value, name);
  if (cachedIdBytes(value as string).length !== 32) throw new TxCodecError(`${name} must have 32 bytes`);
  return taggedIdBytes(value as string, tag);
}

/** encodedBytes reads a `prefix_` field; a SpendTx payload of node < 3.0 is raw text, not `ba_`. */
function encodedBytes(value: Json | undefined, prefix: Prefix, name: string): Uint8Array {
  if (value === undefined || value === '') return new Uint8Array(0);
  if (typeof value !== 'string') throw new TxCodecError(`${name} must be a ${prefix}_ string`);
  if (prefix === 'ba' && !value.startsWith('ba_')) return Buffer.from(value, 'utf8');
  return decode(value, [prefix]).bytes;
}

/** hexBytes reads a `0x…` field (GAAttachTx `auth_fun`). */
function hexBytes(value: Json | undefined, name: string): Uint8Array {
  if (typeof value !== 'string' || !/^0x([0-9a-fA-F]{2})*$/.test(value))
    throw new TxCodecError(`${name} must be a 0x hex string`);
  return Buffer.from(value.slice(2), 'hex');
}

function ttlOf(value: Json | undefined, name: string): [number, number | bigint] {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new TxCodecError(`${name} must be {type, value}`);
  const type = TTL_TYPES.indexOf(value.type as (typeof TTL_TYPES)[number]);
  if (type < 0) throw new TxCodecError(`${name}.type must be delta or block`);
  return [type, asInt(value.value, `${name}.value`)];
}

function idList(value: Json | undefined, name: string): Uint8Array[] {
  return (Array.isArray(value) ? value : []).map((id) => idBytes(id, name));
}

/** updateBytes serialises a ChannelForceProgressTx `update` (an `OffChainCallContract`, version 1). */
function updateBytes(value: Json | undefined, name: string): Uint8Array {
  if (value === null || typeof value !== 'object' || Array.isArray(value) || value.op !== 'OffChainCallContract')
    throw new TxCodecError(`${name} must be an OffChainCallContract update`);
  const items: RlpItem[] = [intToBytes(OFF_CHAIN_CALL_TAG), intToBytes(1)];
  for (const [field, kind] of OFF_CHAIN_CALL_FIELDS) {
    const v = value[field];
    if (kind === 'id') items.push(idBytes(v, `${name}.${field}`));
    else if (kind === 'cb') items.push(encodedBytes(v, 'cb', `${name}.${field}`));
    else if (kind === 'ints') items.push((Array.isArray(v) ? v : []).map((n) => intToBytes(asInt(n, field))));
    else items.push(intToBytes(asInt(v, `${name}.${field}`)));
  }
  return rlpEncode(items);
}

function encodeField(tx: TxFields, name: string, kind: FieldKind, out: RlpItem[]): void {
  const value = tx[name];
  switch (kind) {
    case 'id':
      out.push(idBytes(value, name));
      break;
    case 'int':
      out.push(intToBytes(asInt(value, name)));
      break;
    case 'ba':
    case 'cb':
    case 'st':
    case 'pi':
    case 'tx':
    case 'ss':
      out.push(encodedBytes(value, kind, name));
      break;
    case 'update':
      out.push(updateBytes(value, name));
      break;
    case 'str':
      out.push(Buffer.from(typeof value === 'string' ? value : '', 'utf8'));
      break;
    case 'hex':
      out.push(hexBytes(value, name));
      break;
    case 'oq':
      out.push(encodedBytes(value, 'oq', name));
      break;
    case 'ttl': {
      const [t, v] = ttlOf(value, name);
      out.push(intToBytes(t), intToBytes(v));
      break;
    }
    case 'ctVersion':
      out.push(
        intToBytes((BigInt(asInt(tx.vm_version, 'vm_version')) << 16n) | BigInt(asInt(tx.abi_version, 'abi_version'))),
      );
      break;
    case 'ids':
      out.push(idList(value, name));
      break;
    case 'delegates': {
      const d = value !== null && typeof value === 'object' && !Array.isArray(value) ? value : {};
      out.push(idList(d.initiator, name), idList(d.responder, name));
      break;
    }
    case 'pointers': {
      if (!Array.isArray(value)) throw new TxCodecError('pointers must be a list');
      out.push(
        value.map((p) => {
          if (p === null || typeof p !== 'object' || Array.isArray(p) || typeof p.key !== 'string')
            throw new TxCodecError('a pointer is {key, id}');
          return [Buffer.from(p.key, 'utf8'), idBytes(p.id, 'pointer id')];
        }),
      );
      break;
    }
    case 'signedTx':
      out.push(signedTxBytes(value, name));
      break;
  }
}

/** encodeTx serialises an unsigned transaction: `rlp([tag, version, fields…])`. */
export function encodeTx(tx: TxFields): Uint8Array {
  const schema = schemaFor(String(tx.type), typeof tx.version === 'number' ? tx.version : undefined);
  if (!schema)
    throw new TxCodecError(
      `unsupported transaction type ${String(tx.type)}${tx.version === undefined ? '' : ` version ${String(tx.version)}`}`,
    );
  const items: RlpItem[] = [intToBytes(schema.tag), intToBytes(schema.version)];
  for (const [name, kind] of schema.fields) encodeField(tx, name, kind, items);
  return rlpEncode(items);
}

/** encodeSignedTx wraps transaction bytes with their signatures (sorted, as the node keeps them). */
export function encodeSignedTx(signatures: readonly Uint8Array[], txBytes: Uint8Array): Uint8Array {
  const sorted = [...signatures].sort((a, b) => Buffer.compare(a, b));
  return rlpEncode([intToBytes(SIGNED_TX_TAG), intToBytes(1), sorted, txBytes]);
}

/**
 * signedTxBytes serialises a signed transaction given as the node's JSON `{tx, signatures}`
 * (a GenericSignedTx, or the inner tx of GAMetaTx and PayingForTx); `signatures` absent = none.
 */
export function signedTxBytes(signed: Json | undefined, name = 'signed transaction'): Uint8Array {
  if (signed === null || typeof signed !== 'object' || Array.isArray(signed))
    throw new TxCodecError(`${name} must be {tx, signatures}`);
  const tx = signed.tx;
  if (tx === null || typeof tx !== 'object' || Array.isArray(tx)) throw new TxCodecError(`${name} has no tx object`);
  const signatures = signed.signatures ?? [];
  if (!Array.isArray(signatures)) throw new TxCodecError(`${name}.signatures must be a list`);
  return encodeSignedTx(
    signatures.map((s) => {
      if (typeof s !== 'string') throw new TxCodecError('a signature must be an sg_ string');
      return decode(s, ['sg']).bytes;
    }),
    encodeTx(tx),
  );
}

/** byteStringLength is the RLP size of a byte string of `n` bytes whose first byte is `first`. */
function byteStringLength(n: number, first: number): number {
  return n === 1 && first < 0x80 ? 1 : rlpLength(n);
}

/** intLength is the RLP size of `intToBytes(value)`, counted without building the bytes for a non-negative value. */
function intLength(value: number | bigint): number {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) {
    if (value < 0x80) return 1;
    let n = 0;
    for (let v = value; v > 0; v = Math.floor(v / 256)) n++;
    return rlpLength(n);
  }
  if (typeof value === 'bigint' && value >= 0n) {
    if (value < 0x80n) return 1;
    return rlpLength((value.toString(16).length + 1) >> 1);
  }
  // a negative or non-integer value: intToBytes says why it has no serialisation
  const bytes = intToBytes(value);
  return byteStringLength(bytes.length, bytes[0]!);
}

/**
 * encodedLength is the RLP size of a Base64 `prefix_` field, read off the length of its text:
 * no decoding and no checksum (the costly part for contract code). Anything else is decoded.
 */
function encodedLength(value: Json | undefined, prefix: Prefix, name: string): number {
  if (typeof value === 'string' && value.startsWith(`${prefix}_`) && prefix !== 'oq') {
    const text = value.slice(3);
    const pad = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0;
    // less the 4 checksum bytes; a one-byte payload's size depends on its value, so it is decoded
    const n = Math.floor(((text.length - pad) * 3) / 4) - 4;
    if (n !== 1 && n >= 0 && text.length % 4 !== 1) return rlpLength(n);
  }
  const bytes = encodedBytes(value, prefix, name);
  return byteStringLength(bytes.length, bytes[0] ?? 0);
}

/** ID_ITEM_LENGTH is the RLP size of a 33-byte binary id. */
const ID_ITEM_LENGTH = rlpLength(33);

/**
 * idItemLength is the RLP size of an id, from its prefix alone: measuring decodes no id (and so
 * remembers none: the indexer sees every account of the chain once or more).
 */
function idItemLength(value: Json | undefined, name: string): number {
  idTag(value, name);
  return ID_ITEM_LENGTH;
}

function listLength(items: readonly number[]): number {
  return rlpLength(items.reduce((sum, n) => sum + n, 0));
}

function idListLength(value: Json | undefined, name: string): number {
  return listLength((Array.isArray(value) ? value : []).map((id) => idItemLength(id, name)));
}

/** fieldLength is the RLP size of what encodeField writes for one field. */
function fieldLength(tx: TxFields, name: string, kind: FieldKind): number {
  const value = tx[name];
  switch (kind) {
    case 'id':
      return idItemLength(value, name);
    case 'int':
      return intLength(asInt(value, name));
    case 'ba':
    case 'cb':
    case 'st':
    case 'pi':
    case 'tx':
    case 'oq':
    case 'ss':
      return encodedLength(value, kind, name);
    case 'update': {
      const bytes = updateBytes(value, name);
      return byteStringLength(bytes.length, bytes[0]!);
    }
    case 'str': {
      const text = typeof value === 'string' ? value : '';
      return byteStringLength(Buffer.byteLength(text, 'utf8'), text.charCodeAt(0));
    }
    case 'hex': {
      const bytes = hexBytes(value, name);
      return byteStringLength(bytes.length, bytes[0] ?? 0);
    }
    case 'ttl':
      return ttlOf(value, name).reduce((sum: number, v) => sum + intLength(v), 0);
    case 'ctVersion':
      return intLength(
        (BigInt(asInt(tx.vm_version, 'vm_version')) << 16n) | BigInt(asInt(tx.abi_version, 'abi_version')),
      );
    case 'ids':
      return idListLength(value, name);
    case 'delegates': {
      const d = value !== null && typeof value === 'object' && !Array.isArray(value) ? value : {};
      return idListLength(d.initiator, name) + idListLength(d.responder, name);
    }
    case 'pointers': {
      if (!Array.isArray(value)) throw new TxCodecError('pointers must be a list');
      return listLength(
        value.map((p) => {
          if (p === null || typeof p !== 'object' || Array.isArray(p) || typeof p.key !== 'string')
            throw new TxCodecError('a pointer is {key, id}');
          return listLength([
            byteStringLength(Buffer.byteLength(p.key, 'utf8'), p.key.charCodeAt(0)),
            idItemLength(p.id, 'pointer id'),
          ]);
        }),
      );
    }
    case 'signedTx': {
      if (value === null || typeof value !== 'object' || Array.isArray(value))
        throw new TxCodecError(`${name} must be {tx, signatures}`);
      return rlpLength(signedTxLength(value));
    }
  }
}

/** txLength is `encodeTx(tx).length`, computed without building the bytes. */
export function txLength(tx: TxFields): number {
  const schema = schemaFor(String(tx.type), typeof tx.version === 'number' ? tx.version : undefined);
  if (!schema)
    throw new TxCodecError(
      `unsupported transaction type ${String(tx.type)}${tx.version === undefined ? '' : ` version ${String(tx.version)}`}`,
    );
  return listLength([
    intLength(schema.tag),
    intLength(schema.version),
    ...schema.fields.map(([name, kind]) => fieldLength(tx, name, kind)),
  ]);
}

/** SIGNATURE_ITEM_LENGTH is the RLP size of one 64-byte ed25519 signature. */
const SIGNATURE_ITEM_LENGTH = rlpLength(64);

/**
 * signedTxLength is `signedTxBytes(signed).length` without building the bytes or decoding the
 * signatures (Base58 and checksums): each `sg_` string counts as the 64 bytes every signature has.
 */
export function signedTxLength(signed: { readonly tx?: Json; readonly signatures?: Json }): number {
  const tx = signed.tx;
  if (tx === null || typeof tx !== 'object' || Array.isArray(tx))
    throw new TxCodecError('signed transaction has no tx object');
  const signatures = signed.signatures ?? [];
  if (!Array.isArray(signatures) || signatures.some((s) => typeof s !== 'string' || !s.startsWith('sg_'))) {
    throw new TxCodecError('signed transaction signatures must be a list of sg_ strings');
  }
  // [tag 11, version 1, [signatures], tx bytes]: tag and version are one byte each
  return rlpLength(2 + rlpLength(signatures.length * SIGNATURE_ITEM_LENGTH) + rlpLength(txLength(tx)));
}

/** txHash is the `th_` of a signed transaction: blake2b of its bytes. */
export function txHash(signedBytes: Uint8Array): string {
  return encode('th', hash(signedBytes));
}
