/** @module The byte size of a signed transaction as the node serialises it. Pure. */
import { decode } from './encoding.ts';
import type { Json } from './json.ts';

/**
 * signedTxSize is the length of the signed tx binary when the node sends it (`encoded_tx`, newer
 * nodes). Older nodes do not; then the size of the compact JSON stands in until the RLP serialiser
 * (today in src/devnode/tx-codec.ts) moves under src/chain. `txJson` is that compact JSON of
 * `signed.tx`, which the caller has made anyway.
 */
export function signedTxSize(signed: { [key: string]: Json }, txJson: string): number {
  if (typeof signed.encoded_tx === 'string') {
    try {
      return decode(signed.encoded_tx, ['tx']).bytes.length;
    } catch {
      // fall through: a malformed encoding is measured like a missing one
    }
  }
  return Buffer.byteLength(txJson);
}
