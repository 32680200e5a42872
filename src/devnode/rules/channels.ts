/**
 * @module A state channel's on-chain lifecycle (aesc_*_tx): create, deposit, withdraw, snapshot,
 * mutual close, solo close → slash → settle, and force progress. Off-chain states are taken at
 * their word: a payload's round and state hash are read; a solo close's or slash's proof of inclusion is not checked
 * but read for the parties' balances, and a force progress's off-chain trees for theirs after its call, which become
 * the parties' on-chain amounts (a settle pays them out). Deposits and withdrawals move the channel's amount only:
 * the parties' keep their creation's (or last solo close's, slash's or force progress's) values (aesc_channels
 * deposit, withdraw). Pure.
 */
import { offChainState } from '../../chain/channel-payload.ts';
import { SOLO_ROUND_SWITCH_HEIGHT } from '../../chain/channel-state.ts';
import { LOCKED_COINS_ACCOUNT } from '../../chain/derived-ids.ts';
import { encode, reprefix } from '../../chain/encoding.ts';
import { channelId } from '../ids.ts';
import { forcedAmounts, poiAmounts, type PartyAmounts } from '../../chain/channel-proofs.ts';
import { credit, debit, flatGasUsed, int, num, str, TxRejected, type Apply, type ApplyContext } from './common.ts';
import { FATE_UNIT } from '../contracts/fate-contract.ts';
import type { ChannelEntry, WorldState } from '../store/state.ts';
import type { TxFields } from '../tx-codec.ts';
import { isJsonObject, type Json } from '../../chain/json.ts';

/** OffChainState is what a payload (a signed ChannelOffChainTx) says: the round and state hash. */
export interface OffChainState {
  readonly channelId: string;
  readonly round: number;
  readonly stateHash: string;
}

/** EMPTY_PAYLOADS: a payload naming no state (the last on-chain one), as the node writes it and as tests may. */
const EMPTY_PAYLOADS: ReadonlySet<string> = new Set(['', 'tx_', encode('tx', new Uint8Array(0))]);

/** payloadState reads a `tx_` payload: a signed `[57, 2, channel_id, round, state_hash]`; undefined when empty. */
export function payloadState(payload: Json | undefined): OffChainState | undefined {
  if (typeof payload !== 'string' || EMPTY_PAYLOADS.has(payload)) return undefined;
  const off = offChainState(payload);
  if (!off) throw new TxRejected('bad_state_channel_payload: the payload is not a signed off-chain state');
  return { ...off, round: Number(off.round) };
}

/**
 * forceProgressCall is the call object a force progress leaves in the calls tree, which its info (`call_info`) shows
 * and whose gas the generation's miners get: its off-chain call's caller, gas price and `round` as nonce, the
 * transaction's hash standing for the contract (aesc_utils:add_call, tx_hash_to_contract_pubkey), the devnode's flat
 * gas and, the call not run, a unit result.
 */
function forceProgressCall(tx: TxFields, ctx: ApplyContext): { [k: string]: Json } & { gas_used: number } {
  const update = isJsonObject(tx.update) ? tx.update : {};
  return {
    caller_id: str(update.caller_id),
    caller_nonce: num(tx.round),
    height: ctx.height,
    contract_id: reprefix(ctx.txHash, 'ct'),
    gas_price: update.gas_price ?? 0,
    gas_used: Number(flatGasUsed(update.gas)),
    log: [],
    return_value: FATE_UNIT,
    return_type: 'ok',
  };
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

/**
 * checkRound refuses a state whose round is not above the channel's, or, after forced states, not above the round
 * before the first of them: a co-signed state may replace them all, a forced one only follow them
 * (aesc_utils:check_round_greater_than_last).
 */
function checkRound(channel: ChannelEntry, round: number, forced = false): void {
  const min = channel.soloRound !== 0 && !forced ? channel.soloRound - 1 : channel.round;
  if (round <= min) throw new TxRejected(`old_round: round ${round} is not above ${min}`);
}

function newerState(channel: ChannelEntry, tx: TxFields): OffChainState {
  const off = payloadState(tx.payload);
  if (!off || off.channelId !== channel.id) throw new TxRejected('bad_state_channel_payload: no state of this channel');
  checkRound(channel, off.round);
  return off;
}

/**
 * soloRoundAfterClose is a solo close's or slash's `solo_round`: a co-signed payload replaces the forced states from
 * the switch height on, and before it left `solo_round` as it was (aesc_channels:close_solo_with_payload).
 */
const soloRoundAfterClose = (channel: ChannelEntry, height: number): number =>
  height >= SOLO_ROUND_SWITCH_HEIGHT ? 0 : channel.soloRound;

/**
 * payout closes the channel: what the final amounts (and a mutual close's fee, when the channel pays it) leave of the
 * channel's amount is locked (aeprimop channel_close_mutual, channel_settle: int_lock_amount). A mutual close's may not
 * be more than the channel's amount (`wrong_amounts`); a settle's may not either (`insufficient_channel_funds`), and
 * each must be its party's on-chain amount (`wrong_amt`).
 */
function payout(state: WorldState, channel: ChannelEntry, tx: TxFields, feeFromChannel: boolean): void {
  const settle = tx.type === 'ChannelSettleTx';
  const finals = int(tx.initiator_amount_final) + int(tx.responder_amount_final);
  const left = channel.amount - finals - (feeFromChannel ? int(tx.fee) : 0n);
  if (left < 0n)
    throw new TxRejected(
      settle
        ? 'insufficient_channel_funds: the final amounts are more than the channel amount'
        : 'wrong_amounts: the final amounts and fee are more than the channel amount',
    );
  if (
    settle &&
    (int(tx.initiator_amount_final) !== channel.initiatorAmount ||
      int(tx.responder_amount_final) !== channel.responderAmount)
  )
    throw new TxRejected("wrong_amt: the final amounts are not the parties' on-chain amounts");
  credit(state, channel.initiatorId, int(tx.initiator_amount_final));
  credit(state, channel.responderId, int(tx.responder_amount_final));
  if (left > 0n) credit(state, LOCKED_COINS_ACCOUNT, left);
  state.channels.delete(channel.id);
}

/**
 * provenAmounts are the parties' amounts a solo close's or slash's proof of inclusion holds, which become the
 * channel's on-chain ones (aesc_channels:close_solo_int); none when it holds no account of theirs. Together they may
 * be less than the channel's amount (what is left is burnt at the settle), not more (aesc_utils
 * check_peers_and_amounts_in_poi).
 */
function provenAmounts(channel: ChannelEntry, tx: TxFields): Partial<ChannelEntry> {
  const proven = poiAmounts(tx.poi, channel.initiatorId, channel.responderId);
  if (proven && proven.initiator + proven.responder > channel.amount)
    throw new TxRejected("poi_amounts_change_channel_funds: the proof's amounts are more than the channel amount");
  return proven ? partyAmounts(proven) : {};
}

const partyAmounts = (a: PartyAmounts): Partial<ChannelEntry> => ({
  initiatorAmount: a.initiator,
  responderAmount: a.responder,
});

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
      amount: int(tx.initiator_amount) + int(tx.responder_amount),
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
    checkRound(channel, num(tx.round));
    debit(state, from, int(tx.fee) + int(tx.amount));
    state.channels.set(channel.id, {
      ...channel,
      amount: channel.amount + int(tx.amount),
      round: num(tx.round),
      soloRound: 0,
      stateHash: str(tx.state_hash),
    });
  },
  ChannelWithdrawTx(state, tx) {
    const to = str(tx.to_id);
    const channel = active(openChannel(state, tx, to));
    // what is left must hold both parties' reserves, whoever's the coins were (aeprimop
    // assert_channel_withdraw_amount); the round is checked after it
    if (channel.amount < 2n * channel.channelReserve + int(tx.amount))
      throw new TxRejected('not_enough_channel_funds: the channel would keep less than twice its reserve');
    checkRound(channel, num(tx.round));
    debit(state, to, int(tx.fee));
    credit(state, to, int(tx.amount));
    state.channels.set(channel.id, {
      ...channel,
      amount: channel.amount - int(tx.amount),
      round: num(tx.round),
      soloRound: 0,
      stateHash: str(tx.state_hash),
    });
  },
  ChannelSnapshotSoloTx(state, tx) {
    const from = str(tx.from_id);
    const channel = active(openChannel(state, tx, from));
    const off = newerState(channel, tx);
    debit(state, from, int(tx.fee));
    state.channels.set(channel.id, { ...channel, round: off.round, soloRound: 0, stateHash: off.stateHash });
  },
  // also on a closing channel, whose lock it restarts (aesc_channels:force_progress). Its off-chain call is not run:
  // it uses the devnode's flat gas (flatGasUsed), which its sender pays with the fee at the call's gas price
  // (aesc_utils:process_force_progress, consume_gas_and_fee), and leaves a call object (forceProgressCall)
  ChannelForceProgressTx(state, tx, ctx) {
    const from = str(tx.from_id);
    const channel = openChannel(state, tx, from);
    const round = num(tx.round);
    checkRound(channel, round, true);
    const call = forceProgressCall(tx, ctx);
    debit(state, from, int(tx.fee) + BigInt(call.gas_used) * int(call.gas_price));
    // the first of a chain of forced states is kept; from the switch height on a co-signed payload starts a new chain
    // (aesc_channels:force_progress, force_progress_with_payload)
    const withPayload = payloadState(tx.payload) !== undefined && ctx.height >= SOLO_ROUND_SWITCH_HEIGHT;
    // the parties' balances after the call become their on-chain amounts; on a closing channel a state whose balances
    // are more than the channel's amount leaves the channel as it was, the fee and gas paid (aesc_utils
    // process_force_progress, amounts_do_not_exceed_total_balance)
    const forced = forcedAmounts(tx, channel.initiatorId, channel.responderId, channel.channelReserve);
    if (forced && channel.lockedUntil > 0 && forced.initiator + forced.responder > channel.amount)
      return { callInfo: call };
    state.channels.set(channel.id, {
      ...channel,
      ...(forced ? partyAmounts(forced) : {}),
      round,
      soloRound: withPayload || channel.soloRound === 0 ? round : channel.soloRound,
      stateHash: str(tx.state_hash),
      lockedUntil: channel.lockedUntil === 0 ? 0 : ctx.height + channel.lockPeriod,
    });
    return { callInfo: call };
  },
  // since Iris: a party names the channel's delegates (aesc_set_delegates_tx) on the last on-chain state (an empty
  // payload: the tx repeats its round and state hash) or on a newer co-signed one, which it brings on chain as a
  // snapshot does (aesc_utils:check_set_delegates, process_set_delegates)
  ChannelSetDelegatesTx(state, tx) {
    const from = str(tx.from_id);
    const channel = active(openChannel(state, tx, from));
    const off = payloadState(tx.payload) && newerState(channel, tx);
    if (num(tx.round) !== (off ?? channel).round) throw new TxRejected(`unexpected_round: ${num(tx.round)}`);
    if (!off && str(tx.state_hash) !== channel.stateHash) throw new TxRejected('unexpected_state_hash');
    debit(state, from, int(tx.fee));
    const ids = (v: Json | undefined): string[] => (Array.isArray(v) ? v.map(str) : []);
    state.channels.set(channel.id, {
      ...channel,
      delegateIds: [...ids(tx.initiator_delegate_ids), ...ids(tx.responder_delegate_ids)],
      ...(off ? { round: off.round, soloRound: 0, stateHash: off.stateHash } : {}),
    });
  },
  // its fee is the channel's, but a payer's (its PayingForTx's) when it has one (aeprimop channel_close_mutual: a
  // payer and `Fee > 0`)
  ChannelCloseMutualTx(state, tx, ctx) {
    payout(state, openChannel(state, tx, str(tx.from_id)), tx, ctx.payer === undefined);
  },
  ChannelCloseSoloTx(state, tx, ctx) {
    const from = str(tx.from_id);
    const channel = active(openChannel(state, tx, from));
    // an empty payload closes on the last on-chain state (aesc_channels:close_solo_last_onchain)
    const off = payloadState(tx.payload) && newerState(channel, tx);
    debit(state, from, int(tx.fee));
    state.channels.set(channel.id, {
      ...channel,
      ...(off
        ? { round: off.round, soloRound: soloRoundAfterClose(channel, ctx.height), stateHash: off.stateHash }
        : {}),
      ...provenAmounts(channel, tx),
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
      soloRound: soloRoundAfterClose(channel, ctx.height),
      stateHash: off.stateHash,
      ...provenAmounts(channel, tx),
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
