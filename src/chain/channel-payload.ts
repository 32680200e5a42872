/** @module The round of the off-chain state a channel transaction's `payload` carries (ae_mdw's `round`). Pure. */
import { decode } from './encoding.ts';
import { bytesToInt, rlpDecode, type RlpItem } from './rlp.ts';

const SIGNED_TX = 11n;
const CHANNEL_OFF_CHAIN_TX = 57n;

/** fieldsOf is a serialised object's fields when its first one, the tag, is `tag`; undefined for anything else. */
function fieldsOf(item: RlpItem, tag: bigint): RlpItem[] | undefined {
  if (!Array.isArray(item) || !(item[0] instanceof Uint8Array) || bytesToInt(item[0]) !== tag) return undefined;
  return item;
}

/**
 * offChainRound is the round of the signed ChannelOffChainTx in a ChannelCloseSoloTx's, ChannelSlashTx's or
 * ChannelSnapshotSoloTx's `payload`; undefined when the payload is empty (the last on-chain state is meant) or not
 * such a transaction, where ae_mdw leaves `round` out too.
 */
export function offChainRound(payload: unknown): bigint | undefined {
  if (typeof payload !== 'string') return undefined;
  try {
    const signed = fieldsOf(rlpDecode(decode(payload, ['tx']).bytes), SIGNED_TX);
    const inner = signed?.[3];
    if (!(inner instanceof Uint8Array)) return undefined;
    const round = fieldsOf(rlpDecode(inner), CHANNEL_OFF_CHAIN_TX)?.[3];
    return round instanceof Uint8Array ? bytesToInt(round) : undefined;
  } catch {
    return undefined;
  }
}
