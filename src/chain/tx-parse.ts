/**
 * @module Parsing a transaction's binary form into the node's JSON (`tx` object of GenericSignedTx), the inverse of
 * tx-serialize.ts: the devnode reads what clients post with it, and the server reads the transactions it forwards.
 */
import { encode } from './encoding.ts';
import { encodedField, encodedId } from './id-cache.ts';
import { bytesToInt, rlpDecode, type RlpItem } from './rlp.ts';
import {
  ID_TAGS,
  OFF_CHAIN_CALL_FIELDS,
  OFF_CHAIN_CALL_TAG,
  SIGNED_TX_TAG,
  schemaFor,
  type FieldKind,
  type IdPrefix,
} from './tx-schema.ts';
import type { Json } from './json.ts';
import { TTL_TYPES, TxCodecError, type TxFields } from './tx-serialize.ts';

const PREFIX_BY_TAG = new Map<number, IdPrefix>(Object.entries(ID_TAGS).map(([p, t]) => [t, p as IdPrefix]));
const utf8 = new TextDecoder('utf-8');

/** jsonInt turns a bigint into a number when that loses nothing, as the node prints integers. */
export function jsonInt(value: bigint): number | bigint {
  return value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : value;
}

/**
 * intJson reads an integer field as the node prints it (jsonInt): up to 6 bytes (below 2^48) as a number with no
 * bigint on the way, a bigint made per byte being most of a small integer's decoding (fees, nonces, heights).
 */
function intJson(bytes: Uint8Array): number | bigint {
  if (bytes.length > 6) return jsonInt(bytesToInt(bytes));
  let n = 0;
  for (let i = 0; i < bytes.length; i++) n = n * 256 + bytes[i]!;
  return n;
}

function idJson(bytes: RlpItem, name: string): string {
  if (!(bytes instanceof Uint8Array) || bytes.length !== 33) throw new TxCodecError(`${name} is not an id`);
  const prefix = PREFIX_BY_TAG.get(bytes[0]!);
  if (!prefix) throw new TxCodecError(`${name} has an unknown id tag ${bytes[0]}`);
  return encodedId(prefix, bytes.subarray(1));
}

function blob(item: RlpItem | undefined, name: string): Uint8Array {
  if (!(item instanceof Uint8Array)) throw new TxCodecError(`${name} must be a byte string`);
  return item;
}

function list(item: RlpItem | undefined, name: string): RlpItem[] {
  if (!Array.isArray(item)) throw new TxCodecError(`${name} must be a list`);
  return item;
}

/** updateJson parses a force progress `update` into the node's `{op: "OffChainCallContract", …}`. */
function updateJson(bytes: Uint8Array): { [k: string]: Json } {
  const items = list(rlpDecode(bytes), 'update');
  if (Number(bytesToInt(blob(items[0], 'update tag'))) !== OFF_CHAIN_CALL_TAG || items.length !== 10)
    throw new TxCodecError('update must be an off-chain contract call');
  const out: { [k: string]: Json } = { op: 'OffChainCallContract' };
  OFF_CHAIN_CALL_FIELDS.forEach(([field, kind], i) => {
    const item = items[i + 2];
    if (kind === 'id') out[field] = idJson(blob(item, field), field);
    else if (kind === 'cb') out[field] = encode('cb', blob(item, field));
    else if (kind === 'ints') out[field] = list(item, field).map((n) => intJson(blob(n, field)));
    else out[field] = intJson(blob(item, field));
  });
  return out;
}

function decodeField(
  items: RlpItem[],
  at: number,
  name: string,
  kind: FieldKind,
  tx: TxFields,
  kinds: ReadonlySet<FieldKind> | undefined,
): number {
  // a kind left out is stepped over: two RLP items for the kinds shown as one field of two
  if (kinds !== undefined && !kinds.has(kind)) return at + (kind === 'ttl' || kind === 'delegates' ? 2 : 1);
  const item = items[at];
  switch (kind) {
    case 'id':
      tx[name] = idJson(blob(item, name), name);
      return at + 1;
    case 'int': {
      const value = intJson(blob(item, name));
      // the node omits a ttl of 0: never set (a delete would turn the object into a dictionary, slower to complete)
      if (value !== 0 || name !== 'ttl') tx[name] = value;
      return at + 1;
    }
    case 'ba':
    case 'cb':
    case 'st':
    case 'pi':
    case 'tx':
    case 'oq':
    case 'ss':
      tx[name] = encodedField(kind, blob(item, name));
      return at + 1;
    case 'update':
      tx[name] = updateJson(blob(item, name));
      return at + 1;
    case 'str':
      tx[name] = utf8.decode(blob(item, name));
      return at + 1;
    case 'hex':
      tx[name] = `0x${Buffer.from(blob(item, name)).toString('hex')}`;
      return at + 1;
    case 'signedTx': {
      const { signatures, txBytes } = decodeSignedTx(blob(item, name));
      // the signatures are bytes too: left out with them (`kinds`), as their checksum and Base58 cost
      const inner = decodeTx(txBytes, kinds);
      tx[name] =
        kinds === undefined ? { tx: inner, signatures: signatures.map((s) => encode('sg', s)) } : { tx: inner };
      return at + 1;
    }
    case 'ttl': {
      const type = TTL_TYPES[Number(bytesToInt(blob(item, name)))];
      if (!type) throw new TxCodecError(`${name} has an unknown ttl type`);
      tx[name] = { type, value: intJson(blob(items[at + 1], name)) };
      return at + 2;
    }
    case 'ctVersion': {
      const v = bytesToInt(blob(item, name));
      tx.vm_version = Number(v >> 16n);
      tx.abi_version = Number(v & 0xffffn);
      return at + 1;
    }
    case 'ids':
      tx[name] = list(item, name).map((id) => idJson(id, name));
      return at + 1;
    case 'delegates':
      tx[name] = {
        initiator: list(item, name).map((id) => idJson(id, name)),
        responder: list(items[at + 1], name).map((id) => idJson(id, name)),
      };
      return at + 2;
    case 'kv': {
      const data: { [key: string]: Json } = {};
      for (const pair of list(item, name)) {
        const [key, value] = list(pair, name);
        // defined, not assigned: a key named `__proto__` is data too
        Object.defineProperty(data, utf8.decode(blob(key, `${name} key`)), {
          value: utf8.decode(blob(value, `${name} value`)),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
      tx[name] = data;
      return at + 1;
    }
    case 'unshown':
      // read, and left out as the node's JSON leaves it out
      blob(item, name);
      return at + 1;
    case 'pointers':
      // the node (7.x) prints a pointer's key twice: as text and as its bytes (`encoded_key`), keys sorted
      tx[name] = list(item, name).map((p) => {
        const [key, id] = list(p, 'pointer');
        const keyBytes = blob(key, 'pointer key');
        return {
          encoded_key: encode('ba', keyBytes),
          id: idJson(blob(id, 'pointer id'), 'pointer id'),
          key: utf8.decode(keyBytes),
        };
      });
      return at + 1;
  }
}

/**
 * decodeTx parses an unsigned transaction into the node's JSON; `ttl` 0 is omitted as the node does. With `kinds`, only
 * the fields of those kinds (and a wrapped transaction's) are shown: a reader of the amounts and ids alone (the
 * balances) pays no encoding of call data, payloads and signatures (AMOUNT_KINDS).
 */
export function decodeTx(bytes: Uint8Array, kinds?: ReadonlySet<FieldKind>): TxFields {
  const items = list(rlpDecode(bytes), 'transaction');
  const tag = Number(intJson(blob(items[0], 'tag')));
  const version = Number(intJson(blob(items[1], 'version')));
  const schema = schemaFor(tag, version);
  if (!schema) throw new TxCodecError(`unsupported transaction tag ${tag} version ${version}`);
  const tx: TxFields = {};
  let at = 2;
  for (const [name, kind] of schema.fields) at = decodeField(items, at, name, kind, tx, kinds);
  if (at !== items.length) throw new TxCodecError(`${schema.type} has ${items.length - 2} fields, expected ${at - 2}`);
  // after the fields, as the node prints them: set in place, not by a copy of the whole object for two members
  tx.type = schema.type;
  tx.version = version;
  return tx;
}

/**
 * AMOUNT_KINDS: the kinds that tell who pays and receives what: ids, integers, a wrapped transaction, and a force
 * progress's update (its off-chain call's gas price, at which its sender pays the gas).
 */
export const AMOUNT_KINDS: ReadonlySet<FieldKind> = new Set<FieldKind>(['id', 'int', 'signedTx', 'update']);

/** decodeSignedTx unwraps a signed transaction into its signatures and inner transaction bytes. */
export function decodeSignedTx(bytes: Uint8Array): { signatures: Uint8Array[]; txBytes: Uint8Array } {
  const items = list(rlpDecode(bytes), 'signed transaction');
  if (items.length !== 4 || Number(intJson(blob(items[0], 'tag'))) !== SIGNED_TX_TAG) {
    throw new TxCodecError('not a signed transaction');
  }
  const signatures = list(items[2], 'signatures').map((s) => blob(s, 'signature'));
  return { signatures, txBytes: blob(items[3], 'transaction') };
}
