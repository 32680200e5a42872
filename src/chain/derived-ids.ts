/** @module Ids the chain derives from transaction fields (node aect/aeo/aesc/aens hashing). Pure. */
import { domainToASCII } from 'node:url';
import { DecodeError, encode, hash, reprefix, type Prefix } from './encoding.ts';
import { idBytes } from './id-cache.ts';

/** Big-endian bytes of a non-negative integer; `width` pads to a fixed size, else minimal (0 → one 0 byte). */
function uintBytes(integer: bigint | number, width?: number): Buffer {
  const value = BigInt(integer);
  if (value < 0n) throw new RangeError(`negative integer ${value}`);
  let hex = value.toString(16);
  if (hex.length % 2) hex = `0${hex}`;
  const bytes = Buffer.from(hex, 'hex');
  if (width === undefined) return bytes;
  if (bytes.length > width) throw new RangeError(`integer ${value} does not fit in ${width} bytes`);
  return Buffer.concat([Buffer.alloc(width - bytes.length), bytes]);
}

/**
 * keyOf is the payload of an id of the given kind: the accounts and oracles a derived id is made of recur from tx to
 * tx, so their decoding (Base58 and checksum, checked the first time) is memoised (id-cache.ts).
 */
function keyOf(id: string, prefix: Prefix): Uint8Array {
  if (!id.startsWith(`${prefix}_`)) throw new DecodeError(`expected a ${prefix}_ id, got ${id.slice(0, 3)}`);
  return idBytes(id);
}

/** contractId is blake2b(owner ‖ nonce as minimal bytes) (aect_contracts:compute_contract_pubkey). */
export function contractId(ownerId: string, nonce: bigint | number): string {
  return encode('ct', hash(Buffer.concat([keyOf(ownerId, 'ak'), uintBytes(nonce)])));
}

/**
 * LOCKED_COINS_ACCOUNT holds the coins the chain locks away (aec_governance:locked_coins_holder_account, 32 zero
 * bytes): names' fees (an auction's winning bid; an outbid one is returned), what a channel's close leaves, and it owns
 * the Lima fork's contracts.
 */
export const LOCKED_COINS_ACCOUNT = encode('ak', new Uint8Array(32));

/** oracleId is the registering account's key with the ok_ prefix. */
export function oracleId(accountId: string): string {
  return reprefix(accountId, 'ok');
}

/** oracleQueryId is blake2b(sender ‖ nonce as 32 bytes ‖ oracle) (aeo_query:id). */
export function oracleQueryId(senderId: string, nonce: bigint | number, oracle: string): string {
  const sender = keyOf(senderId, 'ak');
  return encode('oq', hash(Buffer.concat([sender, uintBytes(nonce, 32), keyOf(oracle, 'ok')])));
}

/** channelId is blake2b(initiator ‖ nonce as 32 bytes ‖ responder) (aesc_channels:pubkey). */
export function channelId(initiatorId: string, nonce: bigint | number, responderId: string): string {
  const initiator = keyOf(initiatorId, 'ak');
  return encode('ch', hash(Buffer.concat([initiator, uintBytes(nonce, 32), keyOf(responderId, 'ak')])));
}

/**
 * What the URL host parser behind domainToASCII cuts a name at (slash, backslash, `?`, `#`) or decodes (`%`), and
 * the rest of WHATWG's forbidden domain code points; it drops tab and line breaks, which are controls: no AENS name
 * holds one of them, a control character or a space.
 */
const NOT_IN_NAMES = new Set('#%/:<>?@[\\]^|');

/** isNameText is false for text no AENS name can be (see NOT_IN_NAMES): an API answers it 400. */
export function isNameText(name: string): boolean {
  for (const c of name) {
    const code = c.codePointAt(0)!;
    if (code <= 0x20 || code === 0x7f || NOT_IN_NAMES.has(c)) return false;
  }
  return true;
}

/**
 * asciiName is the lower-case IDNA (punycode) form the node hashes; names are case-insensitive. Text that is no name
 * is hashed as it is, so that it never aliases a name (`a/b.chain` is not `a`, `a<tab>b.chain` is not `ab.chain`).
 */
export function asciiName(name: string): string {
  const lower = name.toLowerCase();
  if (!isNameText(lower)) return lower;
  return domainToASCII(lower) || lower;
}

/** Pre-Lima `.test` names use a recursive hash over the labels, left to right (aens_hash:pre_lima_name_hash). */
function preLimaNameHash(name: string): Uint8Array {
  let h: Uint8Array = new Uint8Array(32);
  for (const label of asciiName(name).split('.')) h = hash(Buffer.concat([h, hash(Buffer.from(label))]));
  return h;
}

function nameHashBytes(name: string): Uint8Array {
  return isPreLimaName(name) ? preLimaNameHash(name) : hash(Buffer.from(asciiName(name)));
}

/** isPreLimaName is true for `.test` names, the only registrar before Lima. */
function isPreLimaName(name: string): boolean {
  return /\.test$/i.test(name);
}

/** nameId is the nm_ hash of a name (`.chain`: blake2b of the ASCII name; `.test`: the pre-Lima recursion). */
export function nameId(name: string): string {
  return encode('nm', nameHashBytes(name));
}

/** commitmentId is the cm_ id a NamePreclaimTx commits to: hash(name form ‖ salt as 32 bytes). */
export function commitmentId(name: string, salt: bigint | number): string {
  const namePart = isPreLimaName(name) ? preLimaNameHash(name) : Buffer.from(asciiName(name));
  return encode('cm', hash(Buffer.concat([namePart, uintBytes(salt, 32)])));
}
