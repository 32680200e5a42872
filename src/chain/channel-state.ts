/**
 * @module A channel's `round`, `solo_round`, `state_hash` and parties' on-chain amounts after its on-chain
 * transactions, as the node keeps them (aesc_channels, aesc_utils). The devnode keeps its own in its rules
 * (rules/channels.ts): it is the oracle this is tested against, so the two are written apart (both read off-chain
 * trees with channel-proofs.ts). Pure.
 */
import { offChainState } from './channel-payload.ts';
import { forcedAmounts, poiAmounts, type PartyAmounts } from './channel-proofs.ts';
import { toBigInt, type Json } from './json.ts';
import { ownTx } from './tx-fields.ts';

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
  /**
   * the parties' on-chain amounts: their creation's until a solo close's or slash's proof or a force progress's
   * off-chain trees set them; deposits and withdrawals move the channel's amount only (aesc_channels deposit,
   * withdraw, close_solo_int, force_progress)
   */
  readonly initiatorAmount: bigint;
  readonly responderAmount: bigint;
}

/**
 * ChannelTerms is what a channel's creation fixes that its later transactions are read with: its parties, whose
 * balances a proof or off-chain trees hold, and its reserve, which a forced call's caller keeps.
 */
export interface ChannelTerms {
  readonly initiator: string;
  readonly responder: string;
  readonly reserve: bigint;
}

/** channelTerms reads a ChannelCreateTx's terms (or the one a GAMetaTx or PayingForTx wraps); undefined for another. */
export function channelTerms(tx: { readonly [key: string]: Json }): ChannelTerms | undefined {
  const create = ownTx(tx, 'ChannelCreateTx');
  if (!create || typeof create.initiator_id !== 'string' || typeof create.responder_id !== 'string') return undefined;
  return {
    initiator: create.initiator_id,
    responder: create.responder_id,
    reserve: toBigInt(create.channel_reserve ?? 0),
  };
}

/** ChannelTx is a channel transaction (unwrapped from a GAMetaTx or PayingForTx) and its micro block's height. */
export interface ChannelTx {
  readonly tx: { readonly [key: string]: Json };
  readonly height: number;
}

/** NO_CHANNEL_STATE is the state before a channel's ChannelCreateTx. */
export const NO_CHANNEL_STATE: ChannelState = {
  round: 0n,
  soloRound: 0n,
  stateHash: null,
  initiatorAmount: 0n,
  responderAmount: 0n,
};

/** channelState folds a channel's transactions, its ChannelCreateTx first, into its state. */
export function channelState(txs: readonly ChannelTx[]): ChannelState {
  const terms = txs[0] && channelTerms(txs[0].tx);
  return txs.reduce((s, t) => nextChannelState(s, t, terms), NO_CHANNEL_STATE);
}

/**
 * nextChannelState is the state after one transaction of a channel of these `terms` (unknown: the parties' amounts
 * are kept); one that names no state (an empty payload) keeps the last on-chain one. A proof or off-chain trees
 * without both parties' accounts (the node refuses them; a devnode takes them) keep the parties' amounts.
 */
export function nextChannelState(s: ChannelState, { tx, height }: ChannelTx, terms?: ChannelTerms): ChannelState {
  const off = offChainState(tx.payload);
  const switched = height >= SOLO_ROUND_SWITCH_HEIGHT;
  switch (tx.type) {
    case 'ChannelCreateTx':
      return {
        round: 1n,
        soloRound: 0n,
        stateHash: text(tx.state_hash),
        initiatorAmount: toBigInt(tx.initiator_amount ?? 0),
        responderAmount: toBigInt(tx.responder_amount ?? 0),
      };
    case 'ChannelDepositTx':
    case 'ChannelWithdrawTx':
      return { ...s, round: toBigInt(tx.round), soloRound: 0n, stateHash: text(tx.state_hash) };
    // aesc_channels:snapshot_solo, which a delegates change with a payload applies too
    case 'ChannelSnapshotSoloTx':
    case 'ChannelSetDelegatesTx':
      return off ? { ...s, round: off.round, soloRound: 0n, stateHash: off.stateHash } : s;
    // close_solo_with_payload (a slash always has one); close_solo_last_onchain keeps the round and state; both take
    // the parties' amounts from the proof (close_solo_int)
    case 'ChannelCloseSoloTx':
    case 'ChannelSlashTx': {
      const amounts = withAmounts(s, terms && poiAmounts(tx.poi, terms.initiator, terms.responder));
      return off
        ? { ...amounts, round: off.round, soloRound: switched ? 0n : s.soloRound, stateHash: off.stateHash }
        : amounts;
    }
    case 'ChannelForceProgressTx': {
      // force_progress keeps the first of a chain of forced states; force_progress_with_payload starts a new chain; the
      // parties' balances after the call become their amounts (aesc_utils:process_force_progress)
      const round = toBigInt(tx.round);
      const soloRound = (off && switched) || s.soloRound === 0n ? round : s.soloRound;
      const forced = terms && forcedAmounts(tx, terms.initiator, terms.responder, terms.reserve);
      return { ...withAmounts(s, forced), round, soloRound, stateHash: text(tx.state_hash) };
    }
    default:
      // a mutual close or settle removes the channel from the node's state: its last state stays the answer
      return s;
  }
}

function withAmounts(s: ChannelState, amounts: PartyAmounts | undefined): ChannelState {
  return amounts ? { ...s, initiatorAmount: amounts.initiator, responderAmount: amounts.responder } : s;
}

function text(v: Json | undefined): string | null {
  return typeof v === 'string' ? v : null;
}
