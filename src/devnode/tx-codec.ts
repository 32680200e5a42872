/**
 * @module The devnode's one codec: transactions between the node's JSON and their signed binary form, parsed in
 * chain/tx-parse.ts and serialised in chain/tx-serialize.ts (both shared with the middleware).
 */
export { decodeSignedTx, decodeTx, jsonInt } from '../chain/tx-parse.ts';
export { encodeSignedTx, encodeTx, txHash, TxCodecError, type TxFields } from '../chain/tx-serialize.ts';
