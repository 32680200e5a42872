/**
 * @module The generator's channel traffic: whole channel lifecycles (create, deposit, withdraw,
 * snapshot, force progress, then a mutual close or a solo close → slash → settle), each step
 * chosen from what the chain says the channel allows.
 */
import { encode } from '../../chain/encoding.ts';
import { signBytes, type KeyPair } from '../keys.ts';
import { channelId } from '../ids.ts';
import type { ChannelEntry } from '../store/state.ts';
import { encodeSignedTx, encodeTx, jsonInt, type BuiltTx, type TxFields } from '../tx-codec.ts';
import type { TrafficKit, WeightedMaker } from './kit.ts';
import { poiOfBalances, treesOfBalances, type Balances } from './off-chain-trees.ts';

interface Channel {
  readonly id: string;
  readonly initiator: KeyPair;
  readonly responder: KeyPair;
}

/**
 * offChainBalances are the parties' balances in the off-chain state a solo transaction proves: the traffic keeps no
 * off-chain state, so the channel's amount split as the parties' on-chain amounts split it.
 */
function offChainBalances(c: Channel, e: ChannelEntry): Balances {
  const held = e.initiatorAmount + e.responderAmount;
  const initiator = held === 0n ? e.amount / 2n : (e.amount * e.initiatorAmount) / held;
  return [
    [c.initiator.address, initiator],
    [c.responder.address, e.amount - initiator],
  ];
}

/** MAX_OPEN_CHANNELS bounds the channels the traffic keeps open, so choosing one costs the same on any chain length. */
const MAX_OPEN_CHANNELS = 40;

/** ChannelTraffic keeps the channels the generator opened. */
export class ChannelTraffic {
  readonly #kit: TrafficKit;
  #channels: Channel[] = [];
  readonly #contractOf: () => string | undefined;

  constructor(kit: TrafficKit, contractOf: () => string | undefined) {
    this.#kit = kit;
    this.#contractOf = contractOf;
  }

  makers(): WeightedMaker[] {
    return [
      [3, () => (this.#channels.length < MAX_OPEN_CHANNELS ? this.#create() : undefined)],
      [2, (h) => this.#step(h)],
      [2, (h) => this.#step(h)],
    ];
  }

  #stateHash(): string {
    return encode('st', this.#kit.rng.bytes(32));
  }

  /** #offChain is a co-signed off-chain state of `round` (a ChannelOffChainTx), as solo transactions carry. */
  #offChain(c: Channel, round: number): string {
    const tx = { type: 'ChannelOffChainTx', version: 2, channel_id: c.id, round, state_hash: this.#stateHash() };
    const bytes = encodeTx(tx);
    const message = Buffer.concat([Buffer.from(this.#kit.chain.options.networkId), bytes]);
    return encode('tx', encodeSignedTx([signBytes(c.initiator, message), signBytes(c.responder, message)], bytes));
  }

  #create(): BuiltTx {
    const initiator = this.#kit.account();
    const responder = this.#kit.other(initiator);
    const nonce = this.#kit.nonce(initiator);
    this.#channels.push({ id: channelId(initiator.address, nonce, responder.address), initiator, responder });
    return {
      tx: {
        type: 'ChannelCreateTx',
        version: 2,
        initiator_id: initiator.address,
        initiator_amount: this.#kit.rng.int(100_000, 1_000_000_000),
        responder_id: responder.address,
        responder_amount: this.#kit.rng.int(100_000, 1_000_000_000),
        channel_reserve: 500,
        lock_period: this.#kit.rng.int(2, 10),
        fee: this.#kit.fee(),
        delegate_ids: { initiator: [], responder: [] },
        state_hash: this.#stateHash(),
        nonce,
      },
      signers: [initiator, responder],
    };
  }

  /** #step moves a random channel on by one transaction its state allows. */
  #step(height: number): BuiltTx | undefined {
    this.#channels = this.#channels.filter((c) => this.#kit.chain.pending.channels.get(c.id) !== undefined);
    if (this.#channels.length === 0) return undefined;
    // a closing channel goes first, so that slashes (within its lock period) and settles happen
    const pending = this.#kit.chain.pending.channels;
    const c = this.#channels.find((ch) => pending.get(ch.id)!.lockedUntil > 0) ?? this.#kit.rng.pick(this.#channels);
    const entry = pending.get(c.id)!;
    if (entry.lockedUntil > 0) {
      if (height > entry.lockedUntil) return this.#settle(c, entry);
      return this.#kit.rng.chance(0.5) ? this.#slash(c, entry) : undefined;
    }
    const roll = this.#kit.rng.int(1, 8);
    if (roll === 8) return this.#setDelegates(c, entry);
    if (roll === 1) return this.#deposit(c, entry);
    if (roll === 2) return this.#withdraw(c, entry);
    if (roll === 3) return this.#snapshot(c, entry);
    if (roll === 4) return this.#forceProgress(c, entry);
    if (roll === 5) return this.#closeSolo(c, entry);
    return this.#closeMutual(c, entry);
  }

  #party(c: Channel): KeyPair {
    return this.#kit.rng.chance(0.5) ? c.initiator : c.responder;
  }

  #base(type: string, c: Channel, from: KeyPair, key = 'from_id') {
    return {
      type,
      version: 1,
      channel_id: c.id,
      [key]: from.address,
      fee: this.#kit.fee(),
      nonce: this.#kit.nonce(from),
    };
  }

  #deposit(c: Channel, e: ChannelEntry): BuiltTx {
    const from = this.#party(c);
    const amount = this.#kit.rng.int(1, 1_000_000);
    return this.#nextRound(this.#base('ChannelDepositTx', c, from), e, amount, from);
  }

  #withdraw(c: Channel, e: ChannelEntry): BuiltTx {
    const to = this.#party(c);
    // a tenth of what the parties' reserves leave (aeprimop assert_channel_withdraw_amount)
    const withdrawable = e.amount - 2n * e.channelReserve;
    return this.#nextRound(this.#base('ChannelWithdrawTx', c, to, 'to_id'), e, jsonInt(withdrawable / 10n), to);
  }

  /** #nextRound is a deposit or a withdrawal: its `base`, the `amount` moved and the channel's next round, by `party`. */
  #nextRound(base: TxFields, e: ChannelEntry, amount: number | bigint, party: KeyPair): BuiltTx {
    return { tx: { ...base, amount, state_hash: this.#stateHash(), round: e.round + 1 }, signers: [party] };
  }

  /** #setDelegates names one or two of the funded accounts as the delegates of either side (since Iris). */
  #setDelegates(c: Channel, e: ChannelEntry): BuiltTx {
    const from = this.#party(c);
    const tx = {
      ...this.#base('ChannelSetDelegatesTx', c, from),
      initiator_delegate_ids: [this.#kit.account().address],
      responder_delegate_ids: this.#kit.rng.chance(0.5) ? [this.#kit.account().address] : [],
      payload: this.#offChain(c, e.round + 1),
      state_hash: this.#stateHash(),
      round: e.round + 1,
    };
    return { tx, signers: [from] };
  }

  #snapshot(c: Channel, e: ChannelEntry): BuiltTx {
    const from = this.#party(c);
    return {
      tx: { ...this.#base('ChannelSnapshotSoloTx', c, from), payload: this.#offChain(c, e.round + 1) },
      signers: [from],
    };
  }

  #forceProgress(c: Channel, e: ChannelEntry): BuiltTx | undefined {
    const contract = this.#contractOf();
    if (!contract) return undefined;
    const from = this.#party(c);
    const update = {
      op: 'OffChainCallContract',
      caller_id: from.address,
      contract_id: contract,
      abi_version: 3,
      amount: this.#kit.rng.int(0, 100),
      call_data: encode('cb', this.#kit.rng.bytes(8)),
      call_stack: [],
      gas_price: 1_000_000_000,
      gas: 10_000,
    };
    const tx = {
      ...this.#base('ChannelForceProgressTx', c, from),
      payload: this.#offChain(c, e.round),
      round: e.round + 1,
      update,
      state_hash: this.#stateHash(),
    };
    // the 16 random bytes its off-chain trees were once: still drawn, last, so that a seed generates the chain it did
    // (tests and benchmarks pair chains by their seed)
    this.#kit.rng.bytes(16);
    return { tx: { ...tx, offchain_trees: treesOfBalances(offChainBalances(c, e)) }, signers: [from] };
  }

  #closeSolo(c: Channel, e: ChannelEntry): BuiltTx {
    const from = this.#party(c);
    const tx = {
      ...this.#base('ChannelCloseSoloTx', c, from),
      payload: this.#offChain(c, e.round + 1),
      poi: poiOfBalances(offChainBalances(c, e)),
    };
    return { tx, signers: [from] };
  }

  #slash(c: Channel, e: ChannelEntry): BuiltTx {
    const from = this.#party(c);
    const tx = {
      ...this.#base('ChannelSlashTx', c, from),
      payload: this.#offChain(c, e.round + 1),
      poi: poiOfBalances(offChainBalances(c, e)),
    };
    return { tx, signers: [from] };
  }

  #settle(c: Channel, e: ChannelEntry): BuiltTx {
    const from = this.#party(c);
    const tx = {
      ...this.#base('ChannelSettleTx', c, from),
      initiator_amount_final: jsonInt(e.initiatorAmount),
      responder_amount_final: jsonInt(e.responderAmount),
    };
    return { tx, signers: [from] };
  }

  #closeMutual(c: Channel, e: ChannelEntry): BuiltTx {
    const fee = BigInt(this.#kit.fee());
    // the channel's amount, its fee taken from the initiator's share of it (no more than the channel's amount)
    const share = e.initiatorAmount < e.amount ? e.initiatorAmount : e.amount;
    const initiatorFinal = share - fee < 0n ? 0n : share - fee;
    const responderFinal = e.amount - fee - initiatorFinal;
    const tx = {
      ...this.#base('ChannelCloseMutualTx', c, c.initiator),
      fee: jsonInt(fee),
      initiator_amount_final: jsonInt(initiatorFinal),
      responder_amount_final: jsonInt(responderFinal),
    };
    return { tx, signers: [c.initiator, c.responder] };
  }
}
