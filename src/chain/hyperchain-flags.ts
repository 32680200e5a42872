/** @module The `flags` word of a hyperchain key header (the node's `blocks.hrl`, API field `flags` from 7.3.0-rc7). Pure. */
import { decode } from './encoding.ts';

/** HOLE: bit 29, a slot whose scheduled leader produced nothing (the block is the next slot's leader's). */
const HOLE = 0x20000000;
/** EOE: bit 28, the last block of an epoch. */
const EOE = 0x10000000;

/** What a key block's flags say; undefined for a key block without flags (not a hyperchain's, or a node before 7.3). */
export interface KeyFlags {
  readonly hole: boolean;
  readonly eoe: boolean;
}

/** keyFlags reads a key block's `flags` (`ba_` of a big-endian 32-bit word). */
export function keyFlags(keyBlock: { readonly flags?: unknown }): KeyFlags | undefined {
  if (typeof keyBlock.flags !== 'string') return undefined;
  const bytes = decode(keyBlock.flags, ['ba']).bytes;
  if (bytes.length < 4) return undefined;
  const word = bytes.readUInt32BE(0);
  return { hole: (word & HOLE) !== 0, eoe: (word & EOE) !== 0 };
}
