/** @module A micro block's `txs_hash`, the root of its transactions' tree: an empty block says so there. Pure. */
import { encode } from './encoding.ts';

/**
 * EMPTY_TXS_HASH is the `txs_hash` of a micro block without transactions: the node pads the empty tree's root to 32
 * zero bytes (aec_txs_trees:pad_empty). All 223 empty micro blocks of the recorded node 7.2.2 have it, and none of
 * the other 217.
 */
export const EMPTY_TXS_HASH = encode('bx', new Uint8Array(32));

/**
 * holdsTransactions says whether a micro block header's `txs_hash` names transactions: any other than the empty
 * tree's (a header without one too, so that it is asked rather than taken as empty).
 */
export function holdsTransactions(header: { readonly txs_hash?: unknown }): boolean {
  return header.txs_hash !== EMPTY_TXS_HASH;
}
