/**
 * @module A channel's `round`, `solo_round` and `state_hash` after its on-chain transactions, as the node keeps them
 * (aesc_channels, aesc_utils). The devnode keeps its own in its rules (rules/channels.ts): it is the oracle this is
 * tested against, so the two are written apart. Pure.
 */
import { offChainState } from './channel-payload.ts';
import { toBigInt, type Json } from './json.ts';

/**
 * SOLO_ROUND_SWITCH_HEIGHT: from this height on (any chain) a solo close or slash with a co-signed payload resets
 * `solo_round`, and a force progress with one sets it to its own round; before it neither did (aesc_channels
 * ?SWITCH_HEIGHT).
 */
export const SOLO_ROUND_SWITCH_HEIGHT = 168_300;

/** ChannelState is what the node's channel object says of the channel's latest state. */
export interface ChannelState {
  readonly round: bigint;
  /** the round of the first of the latest forced states (force progress), 0 since a co-signed state replaced them */
  readonly soloRound: bigint;
  readonly stateHash: string | null;
}

/** ChannelTx is a channel transaction (unwrapped from a GAMetaTx or PayingForTx) and its micro block's height. */
export interface ChannelTx {
  readonly tx: { readonly [key: string]: Json };
  readonly height: number;
}

/** NO_CHANNEL_STATE is the state before a channel's ChannelCreateTx. */
export const NO_CHANNEL_STATE: ChannelState = { round: 0n, soloRound: 0n, stateHash: null };

/** channelState folds a channel's transactions, its ChannelCreateTx first, into its state. */
export function channelState(txs: readonly ChannelTx[]): ChannelState {
  return txs.reduce(nextChannelState, NO_CHANNEL_STATE);
}

/**
 * nextChannelState is the state after one transaction; one that names no state (an empty payload) keeps the last
 * on-chain one.
 */
export function nextChannelState(s: ChannelState, { tx, height }: ChannelTx): ChannelState {
  const off = offChainState(tx.payload);
  const switched = height >= SOLO_ROUND_SWITCH_HEIGHT;
  switch (tx.type) {
    case 'ChannelCreateTx':
      return { round: 1n, soloRound: 0n, stateHash: text(tx.state_hash) };
    case 'ChannelDepositTx':
    case 'ChannelWithdrawTx':
      return { round: toBigInt(tx.round), soloRound: 0n, stateHash: text(tx.state_hash) };
    // aesc_channels:snapshot_solo, which a delegates change with a payload applies too
    case 'ChannelSnapshotSoloTx':
    case 'ChannelSetDelegatesTx':
      return off ? { round: off.round, soloRound: 0n, stateHash: off.stateHash } : s;
    // close_solo_with_payload (a slash always has one); close_solo_last_onchain keeps everything
    case 'ChannelCloseSoloTx':
    case 'ChannelSlashTx':
      return off ? { round: off.round, soloRound: switched ? 0n : s.soloRound, stateHash: off.stateHash } : s;
    case 'ChannelForceProgressTx': {
      // force_progress keeps the first of a chain of forced states; force_progress_with_payload starts a new chain
      const round = toBigInt(tx.round);
      const soloRound = (off && switched) || s.soloRound === 0n ? round : s.soloRound;
      return { round, soloRound, stateHash: text(tx.state_hash) };
    }
    default:
      // a mutual close or settle removes the channel from the node's state: its last state stays the answer
      return s;
  }
}

function text(v: Json | undefined): string | null {
  return typeof v === 'string' ? v : null;
}
