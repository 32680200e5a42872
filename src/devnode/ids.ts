/** @module Ids the node derives from transactions (node-api.md §6.3). Pure. */
import { hash } from '../chain/encoding.ts';
import { encodeFlat, idBytes } from './id-cache.ts';
import { intToBytes } from './rlp.ts';

function uint256(value: bigint | number): Buffer {
  const hex = BigInt(value).toString(16);
  if (hex.length > 64) throw new RangeError('integer does not fit 32 bytes');
  return Buffer.from(hex.padStart(64, '0'), 'hex');
}

/** oracleQueryId is blake2b(sender ‖ nonce as 32 bytes ‖ oracle) as `oq_`. */
export function oracleQueryId(senderId: string, nonce: bigint | number, oracleId: string): string {
  return encodeFlat('oq', hash(Buffer.concat([idBytes(senderId), uint256(nonce), idBytes(oracleId)])));
}

/** contractId is blake2b(owner ‖ nonce in minimal bytes) as `ct_`. */
export function contractId(ownerId: string, nonce: bigint | number): string {
  return encodeFlat('ct', hash(Buffer.concat([idBytes(ownerId), intToBytes(nonce)])));
}

/** channelId is blake2b(initiator ‖ nonce as 32 bytes ‖ responder) as `ch_`. */
export function channelId(initiatorId: string, nonce: bigint | number, responderId: string): string {
  return encodeFlat('ch', hash(Buffer.concat([idBytes(initiatorId), uint256(nonce), idBytes(responderId)])));
}

/** NAME_PATTERN is what the devnode's registrar accepts: one lower-case label under `.chain`. */
const NAME_PATTERN = /^[a-z0-9-]{1,63}\.chain$/;

/** nameValidationError gives the node's reason atom for a name it cannot register, or undefined. */
export function nameValidationError(name: string): string | undefined {
  const lower = name.toLowerCase();
  const parts = lower.split('.');
  if (parts.length < 2 || parts.some((p) => p === '')) return 'no_registrar';
  if (parts.length > 2) return 'multiple_namespaces';
  if (parts[1] !== 'chain') return 'registrar_unknown';
  if (!NAME_PATTERN.test(lower)) return 'invalid_name';
  return undefined;
}

/** nameHash is the `.chain` name id: blake2b of the lower-case name, as `nm_`. */
export function nameHash(name: string): string {
  return encodeFlat('nm', hash(Buffer.from(name.toLowerCase(), 'utf8')));
}

/** commitmentId is blake2b(name ‖ salt as 32 bytes) as `cm_`. */
export function commitmentId(name: string, salt: bigint | number): string {
  return encodeFlat('cm', hash(Buffer.concat([Buffer.from(name.toLowerCase(), 'utf8'), uint256(salt)])));
}
