/**
 * @module The off-chain state a channel transaction's `payload` carries: its channel, round and state hash (what
 * the node sets a channel to at a solo close, slash, snapshot or delegates change, and ae_mdw's `round`). Pure.
 */
import { decode, encode } from './encoding.ts';
import { bytesToInt, rlpDecode, type RlpItem } from './rlp.ts';

const SIGNED_TX = 11n;
const CHANNEL_OFF_CHAIN_TX = 57n;

/** OffChainState is what a payload (a signed ChannelOffChainTx) says of its channel. */
export interface OffChainState {
  readonly channelId: string;
  readonly round: bigint;
  readonly stateHash: string;
}

/** fieldsOf is a serialised object's fields when its first one, the tag, is `tag`; undefined for anything else. */
function fieldsOf(item: RlpItem, tag: bigint): RlpItem[] | undefined {
  if (!Array.isArray(item) || !(item[0] instanceof Uint8Array) || bytesToInt(item[0]) !== tag) return undefined;
  return item;
}

/**
 * offChainState reads the signed ChannelOffChainTx in a channel transaction's `payload`: `[57, 2, channel_id, round,
 * state_hash]`, or before Fortuna `[57, 1, channel_id, round, updates, state_hash]` (aesc_offchain_tx); undefined
 * when the payload is empty (the last on-chain state is meant) or not such a transaction.
 */
export function offChainState(payload: unknown): OffChainState | undefined {
  if (typeof payload !== 'string') return undefined;
  try {
    const signed = fieldsOf(rlpDecode(decode(payload, ['tx']).bytes), SIGNED_TX);
    const inner = signed?.[3];
    if (!(inner instanceof Uint8Array)) return undefined;
    const [, , channel, round, ...rest] = fieldsOf(rlpDecode(inner), CHANNEL_OFF_CHAIN_TX) ?? [];
    const stateHash = rest.at(-1);
    if (!(channel instanceof Uint8Array && round instanceof Uint8Array && stateHash instanceof Uint8Array))
      return undefined;
    // an id is its type tag (one byte) and the key
    return {
      channelId: encode('ch', channel.subarray(1)),
      round: bytesToInt(round),
      stateHash: encode('st', stateHash),
    };
  } catch {
    return undefined;
  }
}

/** offChainRound is the round of the off-chain state in a payload (ae_mdw's `round` of a solo close, slash, snapshot). */
export function offChainRound(payload: unknown): bigint | undefined {
  return offChainState(payload)?.round;
}
