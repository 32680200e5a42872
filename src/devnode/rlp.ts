/** @module The devnode's name for the shared RLP codec (src/chain/rlp.ts). */
export { bytesToInt, intToBytes, RlpError, rlpDecode, rlpEncode, type RlpItem } from '../chain/rlp.ts';
