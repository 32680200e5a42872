/**
 * @module The devnode's one codec: transactions between the node's JSON and their signed binary form, parsed in
 * chain/tx-parse.ts and serialised in chain/tx-serialize.ts (both shared with the middleware).
 */
export { decodeSignedTx, decodeTx, jsonInt } from '../chain/tx-parse.ts';
export { encodeSignedTx, encodeTx, txHash, TxCodecError, type TxFields } from '../chain/tx-serialize.ts';
import type { TxFields } from '../chain/tx-serialize.ts';
import type { KeyPair } from './keys.ts';

/** BuiltTx is a transaction and the key pairs that must sign it. */
export interface BuiltTx {
  readonly tx: TxFields;
  readonly signers: readonly KeyPair[];
  /** its serialisation, for a type the shared codec does not know (made-up-tx.ts) */
  readonly bytes?: Uint8Array;
}
