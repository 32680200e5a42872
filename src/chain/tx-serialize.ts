/**
 * @module Transactions from the node's JSON (the `tx` object of GenericSignedTx) to their binary
 * form: `rlp([tag, version, fields…])`, signed `rlp([11, 1, [signatures], tx_bytes])`, and the `th_`
 * hash. The one serialiser the devnode and the indexer share. Pure.
 */
import { encode, decode, hash, type Prefix } from './encoding.ts';
import type { Json } from './json.ts';
import { idBytes as cachedIdBytes, decodedField, taggedIdBytes } from './id-cache.ts';
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

/**
 * Proof records, while a transaction is serialised, whether its JSON is exactly what tx-parse.ts renders from the
 * bytes (`isDeepStrictEqual`), so that the bytes need no render-back check (chain/stored-tx.ts). Each field's check
 * says what the parser prints for the bytes the serialiser wrote: an id or a Base58 field decoded with its checksum
 * (Base58 with no leading '1' but the zero bytes' is one text per number), Base64 in its one padded standard form,
 * integers as numbers when safe and bigints beyond, text that UTF-8 keeps (no lone surrogate, no leading BOM, which
 * the decoder drops), lower-case hex, the objects' exact keys (`ttl` 0 omitted, every other field present) and the
 * signatures sorted. A field it cannot vouch for (an `update`) clears it, and the full check decides.
 */
interface Proof {
  canonical: boolean;
}

/** isRenderedInt tells an integer the parser prints as it is (tx-parse `jsonInt`: a number when safe, else a bigint). */
function isRenderedInt(value: Json | undefined): boolean {
  if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 0 && !Object.is(value, -0);
  return typeof value === 'bigint' && value > BigInt(Number.MAX_SAFE_INTEGER);
}

/** isPlainObject is a JSON object as JSON.parse makes it, which is what the parser renders. */
function isPlainObject(value: Json | undefined): value is { [key: string]: Json } {
  return typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype;
}

/** hasKeys tells an object with exactly `count` own keys (those checked present, so no other). */
function hasKeys(value: { [key: string]: Json }, count: number): boolean {
  let n = 0;
  for (const key in value) if (Object.hasOwn(value, key)) n++;
  return n === count;
}

/** isRenderedText is text that survives UTF-8 and the parser's TextDecoder (which drops a leading BOM). */
function isRenderedText(value: Json | undefined): boolean {
  return typeof value === 'string' && value.isWellFormed() && value.charCodeAt(0) !== 0xfeff;
}

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

/**
 * encodedBytes reads a `prefix_` field; a SpendTx payload of node < 3.0 is raw text, not `ba_`. An absent or empty
 * field is no bytes, which the parser renders as the encoding of no bytes.
 */
function encodedBytes(value: Json | undefined, prefix: Prefix, name: string, proof?: Proof): Uint8Array {
  if (value === undefined || value === '') {
    if (proof) proof.canonical = false;
    return new Uint8Array(0);
  }
  if (typeof value !== 'string') throw new TxCodecError(`${name} must be a ${prefix}_ string`);
  if (prefix === 'ba' && !value.startsWith('ba_')) {
    if (proof) proof.canonical = false;
    return Buffer.from(value, 'utf8');
  }
  if (!proof) return decode(value, [prefix]).bytes;
  const { bytes, canonical } = decodedField(value, prefix);
  proof.canonical &&= canonical;
  return bytes;
}

/** hexBytes reads a `0x…` field (GAAttachTx `auth_fun`). */
function hexBytes(value: Json | undefined, name: string): Uint8Array {
  if (typeof value !== 'string' || !/^0x([0-9a-fA-F]{2})*$/.test(value))
    throw new TxCodecError(`${name} must be a 0x hex string`);
  return Buffer.from(value.slice(2), 'hex');
}

function ttlOf(value: Json | undefined, name: string, proof?: Proof): [number, number | bigint] {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new TxCodecError(`${name} must be {type, value}`);
  const type = TTL_TYPES.indexOf(value.type as (typeof TTL_TYPES)[number]);
  if (type < 0) throw new TxCodecError(`${name}.type must be delta or block`);
  if (proof) proof.canonical &&= isPlainObject(value) && hasKeys(value, 2) && isRenderedInt(value.value);
  return [type, asInt(value.value, `${name}.value`)];
}

/** idList reads a list of ids (absent = none, which the parser renders as `[]`). */
function idList(value: Json | undefined, name: string, proof?: Proof): Uint8Array[] {
  if (proof) proof.canonical &&= Array.isArray(value);
  return (Array.isArray(value) ? value : []).map((id) => idBytes(id, name));
}

/** kvPairs reads a `kv` field (HCVoteTx `data`): its (key, value) texts as byte strings in key byte order, as the node sorts them. */
function kvPairs(value: Json | undefined, name: string, proof?: Proof): Uint8Array[][] {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new TxCodecError(`${name} must be an object of texts`);
  const pairs = Object.entries(value).map(([key, v]) => {
    if (typeof v !== 'string') throw new TxCodecError(`${name}.${key} must be a text`);
    if (proof) proof.canonical &&= isRenderedText(key) && isRenderedText(v);
    return [Buffer.from(key, 'utf8'), Buffer.from(v, 'utf8')];
  });
  if (proof) proof.canonical &&= isPlainObject(value);
  return pairs.sort((a, b) => Buffer.compare(a[0]!, b[0]!));
}

/** unshownInt reads a field the node's JSON does not show (see FieldKind `unshown`): only a builder names it. */
function unshownInt(value: Json | undefined, name: string): number | bigint {
  if (value === undefined)
    throw new TxCodecError(`${name} is not in the node's JSON: the transaction cannot be rebuilt`);
  return asInt(value, name);
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

/**
 * encodeField writes one field's RLP items; with a proof, it checks that the parser renders them as the field's
 * JSON and returns how many of the object's keys the field accounts for.
 */
function encodeField(tx: TxFields, name: string, kind: FieldKind, out: RlpItem[], proof?: Proof): number {
  const value = tx[name];
  switch (kind) {
    case 'id':
      out.push(idBytes(value, name));
      return 1;
    case 'int':
      out.push(intToBytes(asInt(value, name)));
      // tx-parse omits a `ttl` of 0 as the node does, and prints every other integer
      if (name === 'ttl' && value === undefined) return 0;
      if (proof) proof.canonical &&= isRenderedInt(value) && !(name === 'ttl' && value === 0);
      return 1;
    case 'ba':
    case 'cb':
    case 'st':
    case 'pi':
    case 'tx':
    case 'ss':
    case 'oq':
      out.push(encodedBytes(value, kind, name, proof));
      return 1;
    case 'update':
      out.push(updateBytes(value, name));
      // an off-chain call's fields are not vouched for one by one: the full render decides
      if (proof) proof.canonical = false;
      return 1;
    case 'str':
      out.push(Buffer.from(typeof value === 'string' ? value : '', 'utf8'));
      if (proof) proof.canonical &&= isRenderedText(value);
      return 1;
    case 'hex':
      out.push(hexBytes(value, name));
      if (proof) proof.canonical &&= !/[A-F]/.test(value as string);
      return 1;
    case 'ttl': {
      const [t, v] = ttlOf(value, name, proof);
      out.push(intToBytes(t), intToBytes(v));
      return 1;
    }
    case 'ctVersion': {
      const vm = tx.vm_version;
      const abi = tx.abi_version;
      out.push(intToBytes((BigInt(asInt(vm, 'vm_version')) << 16n) | BigInt(asInt(abi, 'abi_version'))));
      // tx-parse prints both as numbers, the ABI from the low 16 bits
      if (proof)
        proof.canonical &&=
          typeof vm === 'number' && isRenderedInt(vm) && typeof abi === 'number' && isRenderedInt(abi) && abi <= 0xffff;
      return 2;
    }
    case 'ids':
      out.push(idList(value, name, proof));
      return 1;
    case 'delegates': {
      const d = value !== null && typeof value === 'object' && !Array.isArray(value) ? value : {};
      if (proof) proof.canonical &&= isPlainObject(value) && hasKeys(d, 2);
      out.push(idList(d.initiator, name, proof), idList(d.responder, name, proof));
      return 1;
    }
    case 'pointers': {
      if (!Array.isArray(value)) throw new TxCodecError('pointers must be a list');
      out.push(
        value.map((p) => {
          if (p === null || typeof p !== 'object' || Array.isArray(p) || typeof p.key !== 'string')
            throw new TxCodecError('a pointer is {key, id}');
          const key = Buffer.from(p.key, 'utf8');
          // the node's rendering holds the key's bytes as `encoded_key` beside its text (tx-parse.ts)
          if (proof)
            proof.canonical &&=
              isPlainObject(p) && hasKeys(p, 3) && isRenderedText(p.key) && p.encoded_key === encode('ba', key);
          return [key, idBytes(p.id, 'pointer id')];
        }),
      );
      return 1;
    }
    case 'kv':
      out.push(kvPairs(value, name, proof));
      return 1;
    case 'unshown':
      out.push(intToBytes(unshownInt(value, name)));
      // the parser prints no such key: JSON that names it is not what it renders
      return 0;
    case 'signedTx':
      // tx-parse prints a wrapped tx as exactly {tx, signatures}, signatures always a list
      if (proof) proof.canonical &&= isPlainObject(value) && hasKeys(value, 2) && Array.isArray(value.signatures);
      out.push(serialiseSigned(value, name, proof));
      return 1;
  }
}

/** serialiseTx is encodeTx, with a proof that the parser renders the bytes as `tx` (see Proof). */
function serialiseTx(tx: TxFields, proof?: Proof): Uint8Array {
  const schema = schemaFor(String(tx.type), typeof tx.version === 'number' ? tx.version : undefined);
  if (!schema)
    throw new TxCodecError(
      `unsupported transaction type ${String(tx.type)}${tx.version === undefined ? '' : ` version ${String(tx.version)}`}`,
    );
  const items: RlpItem[] = [intToBytes(schema.tag), intToBytes(schema.version)];
  // `type` and `version`, then each field's keys: no other key may be there
  let keys = 2;
  for (const [name, kind] of schema.fields) keys += encodeField(tx, name, kind, items, proof);
  if (proof)
    proof.canonical &&=
      isPlainObject(tx) && typeof tx.type === 'string' && typeof tx.version === 'number' && hasKeys(tx, keys);
  return rlpEncode(items);
}

/** encodeTx serialises an unsigned transaction: `rlp([tag, version, fields…])`. */
export function encodeTx(tx: TxFields): Uint8Array {
  return serialiseTx(tx);
}

/** encodeSignedTx wraps transaction bytes with their signatures (sorted, as the node keeps them). */
export function encodeSignedTx(signatures: readonly Uint8Array[], txBytes: Uint8Array): Uint8Array {
  // one signature (nearly every transaction) is sorted as it is; rlpEncode only reads the list
  const sorted =
    signatures.length < 2 ? (signatures as Uint8Array[]) : [...signatures].sort((a, b) => Buffer.compare(a, b));
  return rlpEncode([intToBytes(SIGNED_TX_TAG), intToBytes(1), sorted, txBytes]);
}

/** isSorted tells signatures already in the node's order (their bytes'), which the parser renders them in. */
function isSorted(signatures: readonly Uint8Array[]): boolean {
  for (let i = 1; i < signatures.length; i++) if (Buffer.compare(signatures[i - 1]!, signatures[i]!) > 0) return false;
  return true;
}

/** serialiseSigned is signedTxBytes, with a proof that the parser renders the bytes as `tx` and `signatures`. */
function serialiseSigned(signed: Json | undefined, name: string, proof?: Proof): Uint8Array {
  if (signed === null || typeof signed !== 'object' || Array.isArray(signed))
    throw new TxCodecError(`${name} must be {tx, signatures}`);
  const tx = signed.tx;
  if (tx === null || typeof tx !== 'object' || Array.isArray(tx)) throw new TxCodecError(`${name} has no tx object`);
  const signatures = signed.signatures ?? [];
  if (!Array.isArray(signatures)) throw new TxCodecError(`${name}.signatures must be a list`);
  // an sg_ string is Base58: decoded with its checksum, it is the one text of its bytes
  const decoded = signatures.map((s) => {
    if (typeof s !== 'string') throw new TxCodecError('a signature must be an sg_ string');
    return decode(s, ['sg']).bytes;
  });
  if (proof) proof.canonical &&= isSorted(decoded);
  return encodeSignedTx(decoded, serialiseTx(tx, proof));
}

/**
 * signedTxBytes serialises a signed transaction given as the node's JSON `{tx, signatures}`
 * (a GenericSignedTx, or the inner tx of GAMetaTx and PayingForTx); `signatures` absent = none.
 */
export function signedTxBytes(signed: Json | undefined, name = 'signed transaction'): Uint8Array {
  return serialiseSigned(signed, name);
}

/**
 * signedTxEncoding is signedTxBytes, and whether tx-parse.ts renders the bytes back as exactly this `tx` and these
 * `signatures` (`renders`; false says only that the serialiser cannot vouch for it: see Proof). Whether a list is
 * printed at all (none for a GAMetaTx) is the caller's part.
 */
export function signedTxEncoding(signed: { readonly tx: Json; readonly signatures: Json }): {
  bytes: Uint8Array;
  renders: boolean;
} {
  const proof: Proof = { canonical: true };
  const bytes = serialiseSigned(signed, 'signed transaction', proof);
  return { bytes, renders: proof.canonical };
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
    case 'kv':
      return listLength(
        kvPairs(value, name).map((pair) => listLength(pair.map((b) => byteStringLength(b.length, b[0] ?? 0)))),
      );
    case 'unshown':
      // the node's vote types (2 a fork vote, 5 a length vote: aec_eoe_*_vote.erl), as any below 128, are one byte
      return value === undefined ? UNSHOWN_LENGTH : intLength(unshownInt(value, name));
  }
}

/** UNSHOWN_LENGTH is the RLP size of an `unshown` integer the JSON leaves out: one byte, as every value below 128. */
const UNSHOWN_LENGTH = 1;

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
