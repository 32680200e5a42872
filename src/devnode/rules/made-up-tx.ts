/**
 * @module A transaction type no node has, which the generator emits behind a flag (tests only: `madeUpTxs`), so that
 * a middleware meets a type it does not know, as it will when a later protocol adds one. The devnode alone knows its
 * layout: the shared codec (chain/tx-serialize.ts) refuses it, as the middleware's does. Its makers for the generator
 * are in traffic/made-up.ts (the rules here are the chain's, which the traffic kit imports).
 */
import { taggedIdBytes } from '../../chain/id-cache.ts';
import { intToBytes, rlpEncode } from '../../chain/rlp.ts';
import { debit, int, str, type Apply } from './common.ts';
import { ID_TAGS } from '../../chain/tx-schema.ts';
import type { TxFields } from '../tx-codec.ts';

/** MADE_UP_TX_TYPE: its name, spelt as the node names its types. */
export const MADE_UP_TX_TYPE = 'DevnodeMadeUpTx';
/** Its object tag: none of the node's (test/fixtures/node-tx-types.json lists those of transactions). */
const MADE_UP_TAG = 9001;

/** madeUpTxBytes is its RLP: `[tag, 1, owner_id, amount, fee, nonce]`. */
export function madeUpTxBytes(tx: TxFields): Uint8Array {
  return rlpEncode([
    intToBytes(MADE_UP_TAG),
    intToBytes(1),
    taggedIdBytes(str(tx.owner_id), ID_TAGS.ak),
    intToBytes(int(tx.amount)),
    intToBytes(int(tx.fee)),
    intToBytes(int(tx.nonce)),
  ]);
}

/** MADE_UP_RULE: its owner pays the fee (the nonce is used as for any type); nothing else changes. */
export const MADE_UP_RULE: Apply = (state, tx) => {
  debit(state, str(tx.owner_id), int(tx.fee));
};
