/**
 * @module A state channel's on-chain lifecycle (aesc_*_tx): create, deposit, withdraw, snapshot,
 * mutual close, solo close → slash → settle, and force progress. Off-chain states are taken at
 * their word: a payload's round and state hash are read, its proof of inclusion is not checked,
 * and the balances are the on-chain ones (deposits and withdrawals move them). Pure.
 */
import { decode } from '../chain/encoding.ts';
import { bytesToInt, rlpDecode, type RlpItem } from '../chain/rlp.ts';
import { channelId } from './ids.ts';
import { credit, debit, int, num, str, TxRejected, type Apply } from './rules-common.ts';
import type { ChannelEntry, WorldState } from './state.ts';
import { decodeSignedTx } from './tx-codec.ts';
import type { TxFields } from './tx-codec.ts';
import type { Json } from '../chain/json.ts';
import { encode } from '../chain/encoding.ts';

/** OffChainState is what a payload (a signed ChannelOffChainTx) says: the round and state hash. */
export interface OffChainState {
  readonly channelId: string;
  readonly round: number;
  readonly stateHash: string;
}

/** payloadState reads a `tx_` payload: a signed `[57, 2, channel_id, round, state_hash]`; undefined when empty. */
export function payloadState(payload: Json | undefined): OffChainState | undefined {
  if (typeof payload !== 'string' || payload === 'tx_' || payload === '') return undefined;
  try {
    const { txBytes } = decodeSignedTx(decode(payload, ['tx']).bytes);
    const items = rlpDecode(txBytes) as RlpItem[];
    const field = (i: number): Uint8Array => items[i] as Uint8Array;
    if (Number(bytesToInt(field(0))) !== 57) throw new Error('not an off-chain tx');
    return {
      channelId: encode('ch', field(2).subarray(1)),
      round: Number(bytesToInt(field(3))),
      stateHash: encode('st', field(4)),
    };
  } catch {
    throw new TxRejected('bad_state_channel_payload: the payload is not a signed off-chain state');
  }
}

function openChannel(state: WorldState, tx: TxFields, party: string): ChannelEntry {
  const channel = state.channels.get(str(tx.channel_id));
  if (!channel) throw new TxRejected(`channel ${str(tx.channel_id)} not found`);
  if (party !== channel.initiatorId && party !== channel.responderId)
    throw new TxRejected(`account_not_peer: ${party} is not a party of ${channel.id}`);
  return channel;
}

function active(channel: ChannelEntry): ChannelEntry {
  if (channel.lockedUntil > 0) throw new TxRejected(`channel ${channel.id} is closing`);
  return channel;
}

function newerState(channel: ChannelEntry, tx: TxFields): OffChainState {
  const off = payloadState(tx.payload);
  if (!off || off.channelId !== channel.id) throw new TxRejected('bad_state_channel_payload: no state of this channel');
  if (off.round <= channel.round) throw new TxRejected(`old_round: round ${off.round} is not above ${channel.round}`);
  return off;
}

const total = (c: ChannelEntry): bigint => c.initiatorAmount + c.responderAmount;

/** payout closes the channel: the final amounts (plus the fee) must be the channel's amount. */
function payout(state: WorldState, channel: ChannelEntry, tx: TxFields, feeFromChannel: boolean): void {
  const finals = int(tx.initiator_amount_final) + int(tx.responder_amount_final);
  if (finals + (feeFromChannel ? int(tx.fee) : 0n) !== total(channel))
    throw new TxRejected('wrong_amounts: final amounts do not add up to the channel amount');
  credit(state, channel.initiatorId, int(tx.initiator_amount_final));
  credit(state, channel.responderId, int(tx.responder_amount_final));
  state.channels.delete(channel.id);
}

function side(channel: ChannelEntry, party: string, delta: bigint): ChannelEntry {
  return party === channel.initiatorId
    ? { ...channel, initiatorAmount: channel.initiatorAmount + delta }
    : { ...channel, responderAmount: channel.responderAmount + delta };
}

export const CHANNEL_RULES: Record<string, Apply> = {
  ChannelCreateTx(state, tx) {
    const initiator = str(tx.initiator_id);
    const responder = str(tx.responder_id);
    debit(state, initiator, int(tx.fee) + int(tx.initiator_amount));
    debit(state, responder, int(tx.responder_amount));
    const id = channelId(initiator, num(tx.nonce), responder);
    const d = tx.delegate_ids;
    const delegateIds = (
      Array.isArray(d) ? d : d && typeof d === 'object' ? [...(d.initiator as Json[]), ...(d.responder as Json[])] : []
    ).map(str);
    state.channels.set(id, {
      id,
      initiatorId: initiator,
      responderId: responder,
      initiatorAmount: int(tx.initiator_amount),
      responderAmount: int(tx.responder_amount),
      channelReserve: int(tx.channel_reserve),
      lockPeriod: num(tx.lock_period),
      delegateIds,
      stateHash: str(tx.state_hash),
      round: 1,
      soloRound: 0,
      lockedUntil: 0,
    });
  },
  ChannelDepositTx(state, tx) {
    const from = str(tx.from_id);
    const channel = active(openChannel(state, tx, from));
    if (num(tx.round) <= channel.round) throw new TxRejected(`old_round: ${num(tx.round)}`);
    debit(state, from, int(tx.fee) + int(tx.amount));
    const next = side(channel, from, int(tx.amount));
    state.channels.set(channel.id, { ...next, round: num(tx.round), stateHash: str(tx.state_hash) });
  },
  ChannelWithdrawTx(state, tx) {
    const to = str(tx.to_id);
    const channel = active(openChannel(state, tx, to));
    if (num(tx.round) <= channel.round) throw new TxRejected(`old_round: ${num(tx.round)}`);
    const own = to === channel.initiatorId ? channel.initiatorAmount : channel.responderAmount;
    if (int(tx.amount) > own) throw new TxRejected('not_enough_channel_funds');
    debit(state, to, int(tx.fee));
    credit(state, to, int(tx.amount));
    const next = side(channel, to, -int(tx.amount));
    state.channels.set(channel.id, { ...next, round: num(tx.round), stateHash: str(tx.state_hash) });
  },
  ChannelSnapshotSoloTx(state, tx) {
    const from = str(tx.from_id);
    const channel = active(openChannel(state, tx, from));
    const off = newerState(channel, tx);
    debit(state, from, int(tx.fee));
    state.channels.set(channel.id, { ...channel, round: off.round, stateHash: off.stateHash });
  },
  // also on a closing channel, whose lock it restarts (aesc_channels:force_progress)
  ChannelForceProgressTx(state, tx, ctx) {
    const from = str(tx.from_id);
    const channel = openChannel(state, tx, from);
    if (num(tx.round) <= channel.round) throw new TxRejected(`old_round: ${num(tx.round)}`);
    debit(state, from, int(tx.fee));
    state.channels.set(channel.id, {
      ...channel,
      round: num(tx.round),
      soloRound: num(tx.round),
      stateHash: str(tx.state_hash),
      lockedUntil: channel.lockedUntil === 0 ? 0 : ctx.height + channel.lockPeriod,
    });
  },
  // since Iris: a party names the channel's delegates (aesc_set_delegates_tx), at a round above the channel's
  ChannelSetDelegatesTx(state, tx) {
    const from = str(tx.from_id);
    const channel = active(openChannel(state, tx, from));
    if (num(tx.round) <= channel.round) throw new TxRejected(`old_round: ${num(tx.round)}`);
    debit(state, from, int(tx.fee));
    const ids = (v: Json | undefined): string[] => (Array.isArray(v) ? v.map(str) : []);
    state.channels.set(channel.id, {
      ...channel,
      delegateIds: [...ids(tx.initiator_delegate_ids), ...ids(tx.responder_delegate_ids)],
      round: num(tx.round),
      stateHash: str(tx.state_hash),
    });
  },
  ChannelCloseMutualTx(state, tx) {
    payout(state, openChannel(state, tx, str(tx.from_id)), tx, true);
  },
  ChannelCloseSoloTx(state, tx, ctx) {
    const from = str(tx.from_id);
    const channel = active(openChannel(state, tx, from));
    const off = payloadState(tx.payload);
    debit(state, from, int(tx.fee));
    state.channels.set(channel.id, {
      ...channel,
      ...(off && off.round > channel.round ? { round: off.round, stateHash: off.stateHash } : {}),
      lockedUntil: ctx.height + channel.lockPeriod,
    });
  },
  // a closing channel is slashed until it is settled, also after its lock ended (aesc_utils:check_slash_payload
  // checks check_is_closing only)
  ChannelSlashTx(state, tx, ctx) {
    const from = str(tx.from_id);
    const channel = openChannel(state, tx, from);
    if (channel.lockedUntil === 0) throw new TxRejected(`channel ${channel.id} is not closing`);
    const off = newerState(channel, tx);
    debit(state, from, int(tx.fee));
    state.channels.set(channel.id, {
      ...channel,
      round: off.round,
      stateHash: off.stateHash,
      lockedUntil: ctx.height + channel.lockPeriod,
    });
  },
  ChannelSettleTx(state, tx, ctx) {
    const from = str(tx.from_id);
    const channel = openChannel(state, tx, from);
    // settled from locked_until on (aesc_channels:is_solo_closed: LockedUntil =< Height)
    if (channel.lockedUntil === 0 || ctx.height < channel.lockedUntil)
      throw new TxRejected(`channel ${channel.id} is not closed yet (locked until ${channel.lockedUntil})`);
    debit(state, from, int(tx.fee));
    payout(state, channel, tx, false);
  },
};

/** channelSigners: create and mutual close need both parties; every other channel tx its `from_id`/`to_id`. */
export function channelSigners(tx: TxFields, state: WorldState): string[] | undefined {
  if (tx.type === 'ChannelCreateTx') return [str(tx.initiator_id), str(tx.responder_id)];
  if (tx.type === 'ChannelCloseMutualTx') {
    const channel = state.channels.get(str(tx.channel_id));
    return channel ? [channel.initiatorId, channel.responderId] : undefined;
  }
  return undefined;
}
