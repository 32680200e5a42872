/**
 * @module A mined transaction's stored form (`transactions.signed`): the node's binary serialisation
 * of the signed transaction, from which its JSON (`signatures` and `tx` of GenericSignedTx) is rendered, digit for
 * digit. A transaction whose bytes would not render back as the node's JSON (a layout the codec does not know, or JSON
 * that is not the node's rendering of its own bytes) is kept as its JSON text instead: an RLP list starts with a byte
 * ≥ 0xc0, JSON with `{`, so one column holds both. Of a signature the check compares the bytes, not its checksum's
 * digits (rendersAs): a node's signature whose checksum is wrong would be served with the right one. Pure.
 */
import { carriesBytes, encode } from './encoding.ts';
import { isJsonObject, jsonEqual, parseJson, stringifyJson, type Json } from './json.ts';
import { AMOUNT_KINDS, decodeSignedTx, decodeTx } from './tx-parse.ts';
import { signedTxSize } from './tx-size.ts';
import { schemaFor } from './tx-schema.ts';
import { signedTxEncoding, type TxFields } from './tx-serialize.ts';

/** The GenericSignedTx fields a stored transaction renders: `signatures` null where the node omits it (GAMetaTx). */
export interface SignedTxJson {
  readonly signatures: string[] | null;
  readonly tx: TxFields;
}

/** What the writer stores of a transaction besides its position, made from the node's JSON once. */
export interface StoredTxColumns {
  /** the signed transaction's binary form, or its JSON text (see the module) */
  readonly signed: Uint8Array;
  /** the byte size of the signed transaction (of its JSON text when no binary form is known) */
  readonly size: number;
  /** the top-level `gas` (contract and GA transactions), for the micro block's gas */
  readonly gas: string | null;
  /** the type of the transaction a GAMetaTx or PayingForTx wraps */
  readonly innerType: string | null;
  /** a channel transaction's coins: `amount`, or the sum of the two parties' (final) amounts */
  readonly channelAmount: string | null;
}

const JSON_FIRST_BYTE = 0x7b; // `{`
const WRAPPERS = new Set(['GAMetaTx', 'PayingForTx']);
/** The amount fields each channel transaction type moves into or out of its channel. */
const CHANNEL_AMOUNT_FIELDS: Readonly<Record<string, readonly string[]>> = {
  ChannelCreateTx: ['initiator_amount', 'responder_amount'],
  ChannelDepositTx: ['amount'],
  ChannelWithdrawTx: ['amount'],
  ChannelCloseMutualTx: ['initiator_amount_final', 'responder_amount_final'],
  ChannelSettleTx: ['initiator_amount_final', 'responder_amount_final'],
};

/** signaturesOmitted is the node's rule: a GAMetaTx is printed without `signatures`. */
function signaturesOmitted(tx: TxFields): boolean {
  return tx.type === 'GAMetaTx';
}

function intOrNull(value: Json | undefined): bigint | null {
  if (typeof value === 'number' && Number.isSafeInteger(value)) return BigInt(value);
  if (typeof value === 'bigint') return value;
  return null;
}

function channelAmount(tx: TxFields): string | null {
  const fields = CHANNEL_AMOUNT_FIELDS[String(tx.type)];
  if (!fields) return null;
  let sum = 0n;
  for (const f of fields) sum += intOrNull(tx[f]) ?? 0n;
  return sum.toString();
}

/**
 * binaryOf is the signed transaction's bytes, or undefined when there are none to keep; `renders` when the serialiser
 * vouches that they render back as `signatures` and `tx` (tx-serialize `signedTxEncoding`), where rendersAs need not
 * check it. The node's `encoded_tx` where it sent one (a 7.x node: every transaction), which rendersAs checks: rendering
 * the bytes back and comparing costs less than serialising the JSON and comparing the bytes (bench/stored-tx.ts,
 * storedTxColumns over 400 generations: 151k instructions a transaction against 216k on the bench chain, 83k against
 * 138k on the mainnet-like one; issue 88). Else the serialiser's bytes of the JSON.
 */
function binaryOf(signed: { readonly [key: string]: Json }): { bytes: Uint8Array; renders: boolean } | undefined {
  try {
    if (typeof signed.encoded_tx === 'string') return { bytes: signedTxBytes(signed)!, renders: false };
    const encoded = signedTxEncoding({ tx: signed.tx ?? null, signatures: signed.signatures ?? [] });
    // the renderer prints no signatures for a GAMetaTx (not even none) and a list for every other type
    const printed = signaturesOmitted(signed.tx as TxFields)
      ? signed.signatures === undefined
      : Array.isArray(signed.signatures);
    return { bytes: encoded.bytes, renders: encoded.renders && printed };
  } catch {
    // no bytes: an encoded_tx that is not one, or JSON of a layout the serialiser does not know
    return undefined;
  }
}

/**
 * encodedTxBytes are the bytes of a node's `encoded_tx` (`tx_`, the Base64 of the bytes and their 4-byte checksum), the
 * checksum not checked: the bytes are kept only where they render back exactly as the JSON the node sent beside them
 * (rendersAs), a check no transport corruption passes by chance, and
 * the checksum's double SHA-256 of every transaction was a fifth of the populator's stored binary (74 of 388 ms on a
 * 1 000-generation load).
 */
export function encodedTxBytes(encoded: string): Uint8Array {
  if (!encoded.startsWith('tx_')) throw new TypeError('an encoded_tx is not tx_');
  const payload = Buffer.from(encoded.slice(3), 'base64');
  if (payload.length < 4) throw new TypeError('an encoded_tx has no checksum');
  return payload.subarray(0, payload.length - 4);
}

/**
 * The bytes of a signed transaction's `encoded_tx` that the fetch decoded for its replays (sync/fetch-replays.ts), by
 * its JSON object, for its transform to store (binaryOf): the `tx_` text of their replays is remembered by the bytes'
 * identity (derived/internal-calls.ts encodedTx), which the batch's replays of the stored bytes then find: one Base64
 * decoding and one encoding with its checksum a transaction where there were two. Only those are kept: a transaction
 * of a block without a contract call is decoded once anyway.
 */
const keptSigned = new WeakMap<object, { readonly encoded: string; readonly bytes: Uint8Array }>();

/**
 * signedTxBytes is encodedTxBytes of a node's signed transaction's `encoded_tx` (throwing as it does), undefined
 * without one: the bytes kept of the same object and text (keptSignedTxBytes), else decoded.
 */
export function signedTxBytes(signed: { readonly [key: string]: Json }): Uint8Array | undefined {
  const encoded = signed.encoded_tx;
  if (typeof encoded !== 'string') return undefined;
  const known = keptSigned.get(signed);
  return known !== undefined && known.encoded === encoded ? known.bytes : encodedTxBytes(encoded);
}

/** keptSignedTxBytes is signedTxBytes, kept for the same object's later calls. */
export function keptSignedTxBytes(signed: { readonly [key: string]: Json }): Uint8Array | undefined {
  const bytes = signedTxBytes(signed);
  if (bytes !== undefined) keptSigned.set(signed, { encoded: signed.encoded_tx as string, bytes });
  return bytes;
}

/** sortedKeys is the value with every object's keys in code unit order: one text per value, however it was read. */
function sortedKeys(value: Json): Json {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (!isJsonObject(value)) return value;
  const out: { [key: string]: Json } = {};
  for (const key of Object.keys(value).sort()) out[key] = sortedKeys(value[key]!);
  return out;
}

/**
 * jsonText is the fallback form: `{"encoded_tx": "tx_…", "signatures": […], "tx": {…}}`, `encoded_tx` where the node
 * sent it (a 7.x node: the signed bytes, which the cached node answers serve as they came), `signatures` absent where
 * the node omitted it, keys sorted (a row written by the populator and one converted from jsonb by 0085 are the same
 * bytes).
 */
function jsonText(signed: { readonly [key: string]: Json }): string {
  const out: { [key: string]: Json } = {};
  if (typeof signed.encoded_tx === 'string') out.encoded_tx = signed.encoded_tx;
  if (Array.isArray(signed.signatures)) out.signatures = signed.signatures;
  out.tx = signed.tx ?? null;
  return stringifyJson(sortedKeys(out));
}

/**
 * rendersAs tells whether the binary form renders as the node's JSON: the serialiser reads some JSON no node of today
 * prints (a SpendTx payload of node < 3.0 as raw text, versions as hex strings, absent fields as 0), whose bytes would
 * render differently. The signatures are compared as bytes, each of the node's carrying the binary's (carriesBytes:
 * their checksums, two SHA-256 each, not computed; a signature's encoding was 37k of the check's ~100k instructions a
 * transaction on the populator benches' chain), and `tx` as rendered.
 */
function rendersAs(binary: Uint8Array, signed: { readonly [key: string]: Json }): boolean {
  try {
    const { signatures, txBytes } = decodeSignedTx(plainBytes(binary));
    const tx = decodeTx(txBytes);
    const theirs = Array.isArray(signed.signatures) ? signed.signatures : null;
    const sameSignatures = signaturesOmitted(tx)
      ? theirs === null
      : theirs !== null &&
        theirs.length === signatures.length &&
        signatures.every((s, i) => typeof theirs[i] === 'string' && carriesBytes(theirs[i], 'sg', s));
    return sameSignatures && jsonEqual(tx, signed.tx ?? null);
  } catch {
    return false;
  }
}

/**
 * storedTxColumns makes a transaction's stored columns from the node's GenericSignedTx. The binary form is kept when
 * it renders back exactly (`signatures` omitted exactly for a GAMetaTx, every field equal), else the JSON text: the
 * node's `encoded_tx` is rendered and compared; without one, the serialiser vouches for the node's usual JSON as it
 * writes the bytes, and what it does not vouch for is rendered and compared.
 */
export function storedTxColumns(signed: { readonly [key: string]: Json }): StoredTxColumns {
  const tx = isJsonObject(signed.tx) ? signed.tx : {};
  const inner = isJsonObject(tx.tx) && isJsonObject(tx.tx.tx) ? tx.tx.tx : undefined;
  // a safe integer's digits need no bigint
  const gas =
    typeof tx.gas === 'number' && Number.isSafeInteger(tx.gas)
      ? String(tx.gas)
      : (intOrNull(tx.gas)?.toString() ?? null);
  const innerType = WRAPPERS.has(String(tx.type)) && inner ? String(inner.type) : null;
  const binary = binaryOf(signed);
  if (binary && (binary.renders || rendersAs(binary.bytes, signed)))
    return { signed: binary.bytes, size: binary.bytes.length, gas, innerType, channelAmount: channelAmount(tx) };
  const text = Buffer.from(jsonText(signed), 'utf8');
  // the node's encoded_tx, else the compact JSON of `tx` stands in (counted as a fallback)
  const size = signedTxSize(signed, stringifyJson(tx));
  return { signed: text, size, gas, innerType, channelAmount: channelAmount(tx) };
}

/** isBinary tells a stored binary form from a stored JSON text. */
export function isBinary(stored: Uint8Array): boolean {
  return stored.length > 0 && stored[0] !== JSON_FIRST_BYTE;
}

/** renderStoredTx is the node's `signatures` and `tx` of a stored transaction. */
export function renderStoredTx(stored: Uint8Array): SignedTxJson {
  if (!isBinary(stored)) return storedJson(stored);
  const { signatures, txBytes } = decodeSignedTx(plainBytes(stored));
  const tx = decodeTx(txBytes);
  return { signatures: signaturesOmitted(tx) ? null : signatures.map((s) => encode('sg', s)), tx };
}

/**
 * renderStoredTxFields is renderStoredTx's `tx` alone: a signature's checksum and Base58 are a sixth of a rendering,
 * which a reader of the fields (an export's CSV) need not pay.
 */
export function renderStoredTxFields(stored: Uint8Array): TxFields {
  return isBinary(stored) ? decodeTx(decodeSignedTx(plainBytes(stored)).txBytes) : storedJson(stored).tx;
}

/**
 * storedTxAmounts is renderStoredTxFields' ids and integers alone (tx-parse.ts AMOUNT_KINDS), a wrapped transaction's
 * too: what moves whose AE (the balances) without the call data's, payloads' and signatures' checksums and Base58. A
 * transaction stored as JSON gives all its fields.
 */
export function storedTxAmounts(stored: Uint8Array): TxFields {
  return isBinary(stored) ? decodeTx(decodeSignedTx(plainBytes(stored)).txBytes, AMOUNT_KINDS) : storedJson(stored).tx;
}

/**
 * txAmounts is storedTxAmounts of the node's JSON of a transaction, with no bytes to decode: the fields of its layout
 * that are ids, integers, a wrapped transaction (its own, without its signatures) and a force progress's update, then
 * `type` and `version`. What the populator keeps of the transactions it wrote for the balances' stretch
 * (derived/written-transactions.ts), which reads them back no more. A layout it does not know gives every field, as a
 * transaction stored as JSON does.
 */
export function txAmounts(tx: TxFields): TxFields {
  const schema = schemaFor(String(tx.type), Number(tx.version));
  if (schema === undefined) return tx;
  const out: TxFields = {};
  for (const [name, kind] of schema.fields) {
    const value = tx[name];
    if (value === undefined || !AMOUNT_KINDS.has(kind)) continue;
    out[name] =
      kind === 'signedTx' && isJsonObject(value) && isJsonObject(value.tx) ? { tx: txAmounts(value.tx) } : value;
  }
  out.type = tx.type!;
  out.version = tx.version!;
  return out;
}

/**
 * plainBytes is a Buffer's bytes seen as a plain Uint8Array: the RLP items decoded of it are then plain views too,
 * where a Buffer's are Buffers, whose constructor was 8 % of a rendering's profile.
 */
function plainBytes(stored: Uint8Array): Uint8Array {
  return Buffer.isBuffer(stored) ? new Uint8Array(stored.buffer, stored.byteOffset, stored.length) : stored;
}

/** storedJsonObject reads the object of a transaction stored as its JSON text. */
function storedJsonObject(stored: Uint8Array): { readonly [key: string]: Json; readonly tx: TxFields } {
  const json = parseJson(Buffer.from(stored.buffer, stored.byteOffset, stored.length).toString('utf8'));
  if (!isJsonObject(json) || !isJsonObject(json.tx)) throw new TypeError('a stored transaction has no tx');
  return json as { [key: string]: Json; tx: TxFields };
}

/** storedJson reads a transaction stored as its JSON text. */
function storedJson(stored: Uint8Array): SignedTxJson {
  const json = storedJsonObject(stored);
  return { signatures: Array.isArray(json.signatures) ? (json.signatures as string[]) : null, tx: json.tx };
}

/**
 * encodedStoredTx is a stored transaction as the node broadcasts it (`tx_…`): its bytes, or for one kept as JSON the
 * node's `encoded_tx` kept with it; null for one kept as JSON that the node sent without it.
 */
export function encodedStoredTx(stored: Uint8Array): string | null {
  if (isBinary(stored)) return encode('tx', stored);
  const encoded = storedJsonObject(stored).encoded_tx;
  return typeof encoded === 'string' ? encoded : null;
}
