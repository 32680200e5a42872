/**
 * @module What transactions, internal calls and internal transfers do to AE balances (chain/balance-deltas.ts):
 * hand-checked cases, and the devnode's rules (src/devnode/rules*.ts) as the oracle: each transaction applied to a
 * world state moves exactly the balances its deltas say.
 */
import { expect } from 'chai';
import { buildContractId } from '@aeternity/aepp-sdk';
import {
  closingChannel,
  internalCallDeltas,
  internalCallPayer,
  stakingWithdrawal,
  transferDeltas,
  txDeltas,
  type BalanceDelta,
  type TxFacts,
} from '../../../src/chain/balance-deltas.ts';
import { LOCKED_COINS_ACCOUNT } from '../../../src/chain/derived-ids.ts';
import { encode } from '../../../src/chain/encoding.ts';
import { address, encodeCallData } from '../../../src/chain/fate.ts';
import { functionId } from '../../../src/devnode/contracts/bytecode.ts';
import { applyTx } from '../../../src/devnode/rules/apply.ts';
import { newState, type WorldState } from '../../../src/devnode/store/state.ts';
import type { TxFields } from '../../../src/devnode/tx-codec.ts';
import { poiOfBalances } from '../../support/channel-txs.ts';

const alice = encode('ak', Buffer.alloc(32, 1));
const bob = encode('ak', Buffer.alloc(32, 2));
const carol = encode('ak', Buffer.alloc(32, 3));
const aliceOracle = encode('ok', Buffer.alloc(32, 1));
const contract = encode('ct', Buffer.alloc(32, 9));
/** the contract's account: where the node keeps its AE */
const contractAccount = encode('ak', Buffer.alloc(32, 9));

/** sum adds each account's deltas (what a balance moved by in all). */
function sum(deltas: readonly BalanceDelta[]): Record<string, bigint> {
  const out: Record<string, bigint> = {};
  for (const d of deltas) out[d.account] = (out[d.account] ?? 0n) + d.amount;
  for (const [k, v] of Object.entries(out)) if (v === 0n) delete out[k];
  return out;
}

function told(tx: TxFields, facts: TxFacts = {}): Record<string, bigint> {
  const result = txDeltas(tx, facts);
  if ('unknown' in result) throw new Error(result.unknown);
  return sum(result.deltas);
}

describe('txDeltas (chain/balance-deltas.ts): hand-checked', () => {
  it("charges a call its fee and the gas it used, and the amount only when it returned ok, into the contract's account", () => {
    const call = {
      type: 'ContractCallTx',
      caller_id: alice,
      contract_id: contract,
      fee: 100,
      amount: 7,
      gas: 5000,
      gas_price: 3,
    };
    expect(told(call, { call: { gasUsed: 1000n, ok: true } })).to.deep.equal({
      [alice]: -(100n + 3000n + 7n),
      [contractAccount]: 7n,
    });
    expect(told(call, { call: { gasUsed: 5000n, ok: false } })).to.deep.equal({ [alice]: -(100n + 15000n) });
    expect(txDeltas(call, {})).to.have.property('unknown');
    // a contract called by a name: where the amount went is not known without the name's pointer
    expect(txDeltas({ ...call, contract_id: 'nm_2Wsa' }, { call: { gasUsed: 1n, ok: true } })).to.have.property(
      'unknown',
    );
  });

  it("keeps a create's deposit and amount only when it succeeded, the amount in the created contract's account", () => {
    const create = {
      type: 'ContractCreateTx',
      owner_id: bob,
      nonce: 3,
      fee: 1,
      amount: 10,
      deposit: 4,
      gas: 10,
      gas_price: 2,
    };
    // the created contract's id as aepp-sdk computes it (buildContractId): blake2b of the owner and the nonce
    const created = buildContractId(bob as `ak_${string}`, 3).replace('ct_', 'ak_');
    expect(told(create, { call: { gasUsed: 10n, ok: true } })).to.deep.equal({
      [bob]: -(1n + 20n + 14n),
      [created]: 10n,
    });
    expect(told(create, { call: { gasUsed: 10n, ok: false } })).to.deep.equal({ [bob]: -21n });
  });

  it('pays a spend to a name to the account it resolved to, and is unknown when that is not known', () => {
    const spend = { type: 'SpendTx', sender_id: alice, recipient_id: 'nm_2Wsa', amount: 5, fee: 2 };
    expect(told(spend, { recipient: carol })).to.deep.equal({ [alice]: -7n, [carol]: 5n });
    expect(txDeltas(spend, {})).to.have.property('unknown');
  });

  it("pays a generalized account's gas, and its inner transaction's moves", () => {
    const meta = {
      type: 'GAMetaTx',
      ga_id: alice,
      fee: 3,
      gas_price: 2,
      tx: { tx: { type: 'SpendTx', sender_id: alice, recipient_id: bob, amount: 9, fee: 1 } },
    };
    expect(told(meta, { gaGasUsed: 50n })).to.deep.equal({ [alice]: -(3n + 100n + 10n), [bob]: 9n });
    expect(told(meta, { gaGasUsed: 50n, gaOk: true })).to.deep.equal({ [alice]: -(3n + 100n + 10n), [bob]: 9n });
    expect(txDeltas(meta, {})).to.have.property('unknown');
  });

  it('charges a GAMetaTx whose inner transaction failed its own fee and gas only (node: aega_meta_tx set_meta_result)', () => {
    const meta = {
      type: 'GAMetaTx',
      ga_id: alice,
      fee: 3,
      gas_price: 2,
      tx: { tx: { type: 'SpendTx', sender_id: alice, recipient_id: bob, amount: 9, fee: 1 } },
    };
    expect(told(meta, { gaGasUsed: 50n, gaOk: false })).to.deep.equal({ [alice]: -(3n + 100n) });
  });

  it('pays a closing channel out to its parties, a mutual close its fee from the channel, what they leave locked', () => {
    const channel = { initiator: alice, responder: bob, amount: 100n };
    const close = {
      type: 'ChannelCloseMutualTx',
      from_id: alice,
      initiator_amount_final: 40,
      responder_amount_final: 59,
      fee: 1,
    };
    expect(told(close, { channel })).to.deep.equal({ [alice]: 40n, [bob]: 59n });
    const settle = { ...close, type: 'ChannelSettleTx', from_id: bob };
    expect(told(settle, { channel: { ...channel, amount: 99n } })).to.deep.equal({ [alice]: 40n, [bob]: 58n });
    // final amounts (and a mutual close's fee) below the channel's amount: the rest locked
    expect(told(close, { channel: { ...channel, amount: 130n } })).to.deep.equal({
      [alice]: 40n,
      [bob]: 59n,
      [LOCKED_COINS_ACCOUNT]: 30n,
    });
    expect(told(settle, { channel })).to.deep.equal({ [alice]: 40n, [bob]: 58n, [LOCKED_COINS_ACCOUNT]: 1n });
  });

  it("charges a PayingForTx's payer both fees and the inner transaction's gas, as the node's aeprimop does (split_payment, spend_fee)", () => {
    const call = {
      type: 'ContractCallTx',
      caller_id: alice,
      contract_id: contract,
      fee: 100,
      amount: 7,
      gas: 5000,
      gas_price: 3,
    };
    const paid = (inner: TxFields): TxFields => ({ type: 'PayingForTx', payer_id: carol, fee: 5, tx: { tx: inner } });
    // the caller pays the amount alone, the payer the fees and the gas used (a failed call's too)
    expect(told(paid(call), { call: { gasUsed: 1000n, ok: true } })).to.deep.equal({
      [alice]: -7n,
      [contractAccount]: 7n,
      [carol]: -(5n + 100n + 3000n),
    });
    expect(told(paid(call), { call: { gasUsed: 5000n, ok: false } })).to.deep.equal({ [carol]: -(5n + 100n + 15000n) });
    // a mutual close's fee is the payer's, not the channel's: the coins the final amounts leave in it are locked
    // (aeprimop channel_close_mutual with a payer), its sender gets nothing back
    const close = {
      type: 'ChannelCloseMutualTx',
      from_id: alice,
      initiator_amount_final: 40,
      responder_amount_final: 59,
      fee: 1,
    };
    expect(told(paid(close), { channel: { initiator: alice, responder: bob, amount: 100n } })).to.deep.equal({
      [alice]: 40n,
      [bob]: 59n,
      [carol]: -6n,
      [LOCKED_COINS_ACCOUNT]: 1n,
    });
  });

  it('says which types it does not know', () => {
    expect(txDeltas({ type: 'MadeUpTx', owner_id: alice, fee: 1 }, {})).to.deep.equal({
      unknown: 'the balance changes of a MadeUpTx are not known',
    });
  });
});

describe('closingChannel (chain/balance-deltas.ts)', () => {
  it("gives a channel's parties and its amount: created, plus deposits, less withdrawals, wrapped ones too", () => {
    const create = {
      type: 'ChannelCreateTx',
      initiator_id: alice,
      responder_id: bob,
      initiator_amount: 70,
      responder_amount: 30,
    };
    const deposit = { type: 'ChannelDepositTx', from_id: bob, amount: 12 };
    const withdraw = { type: 'ChannelWithdrawTx', to_id: alice, amount: 5 };
    const paid = { type: 'PayingForTx', payer_id: carol, tx: { tx: deposit } };
    const meta = { type: 'GAMetaTx', ga_id: alice, tx: { tx: withdraw } };
    expect(closingChannel([create, deposit, withdraw, paid, meta])).to.deep.equal({
      initiator: alice,
      responder: bob,
      amount: 100n + 12n - 5n + 12n - 5n,
    });
    // without its creation its parties are not known
    expect(closingChannel([deposit, withdraw])).to.equal(undefined);
  });
});

describe('internalCallDeltas and transferDeltas (chain/balance-deltas.ts)', () => {
  it("moves an internal spend between the accounts it names, a contract's included, nothing for AENS or oracles", () => {
    expect(internalCallDeltas('Chain.spend', { sender_id: alice, recipient_id: bob, amount: 5 })).to.deep.equal([
      { account: alice, amount: -5n, kind: 'Chain.spend' },
      { account: bob, amount: 5n, kind: 'Chain.spend' },
    ]);
    expect(internalCallDeltas('Call.amount', { sender_id: contract, recipient_id: bob, amount: 2n })).to.deep.equal([
      { account: contractAccount, amount: -2n, kind: 'Call.amount' },
      { account: bob, amount: 2n, kind: 'Call.amount' },
    ]);
    // an AENS or oracle function: what the transaction it amounts to costs its payer (the fee is 0)
    expect(internalCallDeltas('AENS.claim', { account_id: contractAccount, name_fee: 5, fee: 0 })).to.deep.equal([
      { account: contractAccount, amount: -5n, kind: 'AENS.claim' },
    ]);
    expect(internalCallDeltas('Oracle.query', { sender_id: alice, query_fee: 4, fee: 0 })).to.deep.equal([
      { account: alice, amount: -4n, kind: 'Oracle.query' },
    ]);
    expect(internalCallDeltas('AENS.update', { account_id: alice, fee: 0 })).to.deep.equal([]);
    expect(internalCallDeltas('Chain.create', { owner_id: alice, amount: 5 })).to.deep.equal([]);
  });

  it("locks a contract's claim's name fee where no auction holds it (13+ characters), as the node does", () => {
    const claim = (name: string): ReturnType<typeof internalCallDeltas> =>
      internalCallDeltas('AENS.claim', { account_id: contractAccount, name, name_salt: 0, name_fee: 7, fee: 0 });
    expect(claim('thirteenchars.chain')).to.deep.equal([
      { account: contractAccount, amount: -7n, kind: 'AENS.claim' },
      { account: LOCKED_COINS_ACCOUNT, amount: 7n, kind: 'AENS.claim' },
    ]);
    // 12 characters: an auction's bid, held in it (no account's)
    expect(claim('twelvecharsx.chain')).to.deep.equal([{ account: contractAccount, amount: -7n, kind: 'AENS.claim' }]);
  });

  it('names the payer of an internal call other than Chain.spend and Call.amount, to reconcile it', () => {
    expect(internalCallPayer('AENS.claim', { account_id: contractAccount, name_fee: 5 })).to.equal(contractAccount);
    expect(internalCallPayer('Oracle.query', { sender_id: alice, oracle_id: aliceOracle })).to.equal(alice);
    expect(internalCallPayer('Oracle.respond', { oracle_id: aliceOracle })).to.equal(alice);
    expect(internalCallPayer('Chain.spend', { sender_id: contractAccount, recipient_id: bob })).to.equal(undefined);
    expect(internalCallPayer('Call.amount', { sender_id: contractAccount, recipient_id: bob })).to.equal(undefined);
  });

  it('credits rewards, refunds and fork accounts, moves a locked name fee to the locked-coins account', () => {
    expect(transferDeltas('reward_block', alice, 10n)).to.deep.equal([
      { account: alice, amount: 10n, kind: 'reward_block' },
    ]);
    expect(transferDeltas('fee_refund_name', bob, 3n)).to.deep.equal([
      { account: bob, amount: 3n, kind: 'fee_refund_name' },
    ]);
    expect(transferDeltas('fee_lock_name', bob, 3n)).to.deep.equal([
      { account: LOCKED_COINS_ACCOUNT, amount: 3n, kind: 'fee_lock_name' },
    ]);
    // the claim paid it already
    expect(transferDeltas('fee_spend_name', bob, 3n)).to.deep.equal([]);
    // a Lima contract's amount, its account as ae_mdw names it
    expect(transferDeltas('contracts_lima', contractAccount, 3n)).to.deep.equal([
      { account: contractAccount, amount: 3n, kind: 'contracts_lima' },
    ]);
  });
});

describe('txDeltas against the devnode rules', () => {
  let state: WorldState;
  let height = 1;

  /**
   * applied applies tx on the devnode's state and gives each balance's move (the oracle), the deltas derived with
   * `facts` (or with what it makes of the devnode's call info of the transaction).
   */
  function applied(
    tx: TxFields,
    facts: TxFacts | ((callInfo: { [k: string]: unknown } | undefined) => TxFacts) = {},
  ): { node: Record<string, bigint>; derived: Record<string, bigint> } {
    const before = new Map([...state.accounts.entries()].map(([id, a]) => [id, a.balance]));
    const effect = applyTx(state, tx, { height, generation: height, txHash: encode('th', Buffer.alloc(32, height)) });
    if (typeof facts === 'function') facts = facts(effect.callInfo);
    height += 1;
    const node: Record<string, bigint> = {};
    for (const [id, a] of state.accounts.entries()) {
      const moved = a.balance - (before.get(id) ?? 0n);
      if (moved !== 0n) node[id] = moved;
    }
    // the AE a call moved (its name operations and the contracts it created move none here)
    const inner = (effect.events ?? []).flatMap((t) =>
      'from' in t ? internalCallDeltas(t.type, { sender_id: t.from, recipient_id: t.to, amount: t.amount }) : [],
    );
    return { node, derived: sum([...((txDeltas(tx, facts) as { deltas: BalanceDelta[] }).deltas ?? []), ...inner]) };
  }

  before(() => {
    state = newState();
    for (const id of [alice, bob, carol]) state.accounts.set(id, { balance: 10n ** 20n, nonce: 0 });
  });

  const nonce = (id: string): number => (state.accounts.get(id)?.nonce ?? 0) + 1;
  /** channelCreate opens a channel of alice's (100) and bob's (50) */
  const channelCreate = (): TxFields => ({
    type: 'ChannelCreateTx',
    initiator_id: alice,
    responder_id: bob,
    initiator_amount: 100,
    responder_amount: 50,
    channel_reserve: 1,
    lock_period: 1,
    fee: 1,
    delegate_ids: [],
    state_hash: encode('st', Buffer.alloc(32)),
    nonce: nonce(alice),
  });

  /** gaSpend is the generalized account `ga`'s meta transaction (authorized by `n`) of a spend of `amount` to Bob. */
  const gaSpend = (ga: string, amount: bigint, n: number): TxFields => ({
    type: 'GAMetaTx',
    ga_id: ga,
    auth_data: encode('cb', Buffer.from([n])),
    abi_version: 3,
    fee: 100_000,
    gas: 5000,
    gas_price: 1_000_000_000,
    tx: { tx: { type: 'SpendTx', sender_id: ga, recipient_id: bob, amount, fee: 20_000, nonce: 0 } },
  });

  /** opened opens a channel by channelCreate: its creation and id. */
  function opened(): { create: TxFields; channelId: string } {
    const create = channelCreate();
    const before = new Set([...state.channels.entries()].map(([id]) => id));
    applied(create);
    return { create, channelId: [...state.channels.entries()].map(([id]) => id).find((id) => !before.has(id))! };
  }

  /** bobCloses is Bob's mutual close of a channel paying out `initiator` and `responder`. */
  const bobCloses = (channelId: string, initiator: number, responder: number, fee: number): TxFields => ({
    type: 'ChannelCloseMutualTx',
    channel_id: channelId,
    from_id: bob,
    initiator_amount_final: initiator,
    responder_amount_final: responder,
    fee,
    nonce: nonce(bob),
  });

  it('spends, paid-for spends, oracles, preclaims and channels move what their deltas say', () => {
    const cases: [() => TxFields, TxFacts?][] = [
      [() => ({ type: 'SpendTx', sender_id: alice, recipient_id: bob, amount: 1234, fee: 20, nonce: nonce(alice) })],
      [
        () => ({
          type: 'PayingForTx',
          payer_id: carol,
          fee: 7,
          nonce: nonce(carol),
          tx: { tx: { type: 'SpendTx', sender_id: bob, recipient_id: alice, amount: 5, fee: 3, nonce: nonce(bob) } },
        }),
      ],
      [
        () => ({
          type: 'OracleRegisterTx',
          account_id: alice,
          query_format: 'q',
          response_format: 'r',
          query_fee: 10,
          oracle_ttl: { type: 'delta', value: 500 },
          fee: 2,
          abi_version: 0,
          nonce: nonce(alice),
        }),
      ],
      [
        () => ({
          type: 'OracleQueryTx',
          sender_id: bob,
          oracle_id: aliceOracle,
          query: 'q',
          query_fee: 10,
          query_ttl: { type: 'delta', value: 10 },
          response_ttl: { type: 'delta', value: 10 },
          fee: 2,
          nonce: nonce(bob),
        }),
      ],
      [
        () => ({
          type: 'NamePreclaimTx',
          account_id: carol,
          commitment_id: encode('cm', Buffer.alloc(32, 5)),
          fee: 4,
          nonce: nonce(carol),
        }),
      ],
      [channelCreate],
    ];
    for (const [make, facts] of cases) {
      const tx = make();
      const { node, derived } = applied(tx, facts);
      expect(derived, String(tx.type)).to.deep.equal(node);
    }
    const channelId = [...state.channels.entries()][0]![0];
    // its amount before the close: 150 created, 9 deposited, 30 withdrawn
    const channel = { initiator: alice, responder: bob, amount: 129n };
    for (const make of [
      () => ({
        type: 'ChannelDepositTx',
        channel_id: channelId,
        from_id: bob,
        amount: 9,
        state_hash: encode('st', Buffer.alloc(32, 2)),
        round: 2,
        fee: 1,
        nonce: nonce(bob),
      }),
      () => ({
        type: 'ChannelWithdrawTx',
        channel_id: channelId,
        to_id: alice,
        amount: 30,
        state_hash: encode('st', Buffer.alloc(32, 3)),
        round: 3,
        fee: 2,
        nonce: nonce(alice),
      }),
      () => ({
        type: 'ChannelCloseMutualTx',
        channel_id: channelId,
        from_id: alice,
        initiator_amount_final: 69,
        responder_amount_final: 59,
        fee: 1,
        nonce: nonce(alice),
      }),
    ]) {
      const tx = make();
      const { node, derived } = applied(tx, { channel });
      expect(derived, tx.type).to.deep.equal(node);
    }
  });

  it("a generalized account's meta transactions move what their deltas say, one whose inner spend fails its fee and gas only", () => {
    const ga = encode('ak', Buffer.alloc(32, 4));
    state.accounts.set(ga, { balance: 10n ** 18n, nonce: 1, ga: { contractId: contract, authFun: 'authorize' } });
    const meta = (amount: bigint, n: number): TxFields => gaSpend(ga, amount, n);
    for (const [amount, ok] of [
      [10n ** 20n, false],
      [1234n, true],
    ] as const) {
      const tx = meta(amount, Number(ok));
      const effect = applyTx(state, tx, { height, generation: height, txHash: 'th_x' });
      // the devnode's own answer: a failed inner transaction's GA call returns `error`, its info names the type only
      expect(effect.gaInfo?.return_type, String(amount)).to.equal(ok ? 'ok' : 'error');
      if (!ok) expect(effect.gaInfo?.inner_object).to.deep.equal({ tx_info: 'spend_tx' });
    }
    const before = state.accounts.get(ga)!.balance;
    const { node, derived } = applied(meta(10n ** 20n, 9), { gaGasUsed: 1000n, gaOk: false });
    expect(derived).to.deep.equal(node);
    expect(node).to.deep.equal({ [ga]: -(100_000n + 1000n * 1_000_000_000n) });
    expect(state.accounts.get(ga)!.balance).to.equal(before - 100_000n - 10n ** 12n);
  });

  it("a paid-for generalized account's meta transaction moves what its deltas say: the payer pays every fee and the authentication's gas", () => {
    const ga = encode('ak', Buffer.alloc(32, 5));
    // a GA holding less than the fees and gas it would pay alone
    state.accounts.set(ga, { balance: 5000n, nonce: 1, ga: { contractId: contract, authFun: 'authorize' } });
    const paidMeta = (amount: bigint, n: number): TxFields => ({
      type: 'PayingForTx',
      payer_id: carol,
      fee: 7,
      nonce: nonce(carol),
      tx: { tx: gaSpend(ga, amount, n) },
    });
    const gas = 1000n * 1_000_000_000n;
    const ok = applied(paidMeta(1234n, 1), { gaGasUsed: 1000n, gaOk: true });
    expect(ok.derived).to.deep.equal(ok.node);
    expect(ok.node).to.deep.equal({ [ga]: -1234n, [bob]: 1234n, [carol]: -(7n + 100_000n + gas + 20_000n) });
    // an inner spend the GA cannot make is undone, its fee too
    const failed = applied(paidMeta(10n ** 6n, 2), { gaGasUsed: 1000n, gaOk: false });
    expect(failed.derived).to.deep.equal(failed.node);
    expect(failed.node).to.deep.equal({ [carol]: -(7n + 100_000n + gas) });
  });

  it("a paid-for mutual close whose final amounts alone are the channel's amount moves what its deltas say, nothing locked", () => {
    const { create, channelId } = opened();
    const close = bobCloses(channelId, 100, 50, 3);
    const paid = { type: 'PayingForTx', payer_id: carol, fee: 2, nonce: nonce(carol), tx: { tx: close } };
    const { node, derived } = applied(paid, { channel: closingChannel([create]) });
    expect(derived).to.deep.equal(node);
    expect(node).to.deep.equal({ [alice]: 100n, [bob]: 50n, [carol]: -5n });
  });

  it("a settle of a solo close's proven amounts moves what its deltas say, what they leave of the channel's amount locked", () => {
    const { create, channelId } = opened();
    const deposit = {
      type: 'ChannelDepositTx',
      channel_id: channelId,
      from_id: bob,
      amount: 30,
      round: 2,
      state_hash: encode('st', Buffer.alloc(32, 2)),
      fee: 1,
      nonce: nonce(bob),
    };
    applied(deposit);
    const closeSolo = {
      type: 'ChannelCloseSoloTx',
      channel_id: channelId,
      from_id: alice,
      payload: 'tx_',
      poi: poiOfBalances([
        [alice, 90n],
        [bob, 70n],
      ]),
      fee: 1,
      nonce: nonce(alice),
    };
    applied(closeSolo);
    height += 1;
    const settle = {
      type: 'ChannelSettleTx',
      channel_id: channelId,
      from_id: bob,
      initiator_amount_final: 90,
      responder_amount_final: 70,
      fee: 4,
      nonce: nonce(bob),
    };
    const channel = closingChannel([create, deposit]);
    expect(channel).to.deep.equal({ initiator: alice, responder: bob, amount: 180n });
    const { node, derived } = applied(settle, { channel });
    expect(derived).to.deep.equal(node);
    expect(node).to.deep.equal({ [alice]: 90n, [bob]: 66n, [LOCKED_COINS_ACCOUNT]: 20n });
  });

  it("a force progress, plain or paid for, moves what its deltas say: its sender's or payer's fee and its call's gas at the update's price", () => {
    const { channelId } = opened();
    const progress = (round: number): TxFields => ({
      type: 'ChannelForceProgressTx',
      channel_id: channelId,
      from_id: bob,
      payload: 'tx_',
      round,
      update: { op: 'OffChainCallContract', caller_id: alice, gas_price: 1_000_000_000, gas: 5000 },
      state_hash: encode('st', Buffer.alloc(32, round)),
      offchain_trees: encode('ss', Buffer.alloc(16)),
      fee: 20_000,
      nonce: nonce(bob),
    });
    const gasFacts = (info: { [k: string]: unknown } | undefined): TxFacts => ({
      call: { gasUsed: BigInt(info!.gas_used as number), ok: true },
    });
    const plain = applied(progress(2), gasFacts);
    expect(plain.derived).to.deep.equal(plain.node);
    // the devnode's flat 1000 gas × 10⁹ and the fee
    expect(plain.node).to.deep.equal({ [bob]: -(20_000n + 10n ** 12n) });
    const paid = { type: 'PayingForTx', payer_id: carol, fee: 2, nonce: nonce(carol), tx: { tx: progress(3) } };
    const forCarol = applied(paid, gasFacts);
    expect(forCarol.derived).to.deep.equal(forCarol.node);
    expect(forCarol.node).to.deep.equal({ [carol]: -(2n + 20_000n + 10n ** 12n) });
    // without its gas the change is not told (the payer's balance is then the node's)
    expect(txDeltas(progress(4), {})).to.deep.equal({ unknown: 'no call info (gas used) for the force progress' });
  });

  it("a mutual close a PayingForTx pays for moves what its deltas say, the channel's leftover (its fee) locked", () => {
    const { channelId } = opened();
    const close = bobCloses(channelId, 90, 57, 3);
    const paid = { type: 'PayingForTx', payer_id: carol, fee: 2, nonce: nonce(carol), tx: { tx: close } };
    const { node, derived } = applied(paid, { channel: { initiator: alice, responder: bob, amount: 150n } });
    expect(derived).to.deep.equal(node);
    expect(node).to.deep.equal({ [alice]: 90n, [bob]: 57n, [carol]: -5n, [LOCKED_COINS_ACCOUNT]: 3n });
  });

  it('a mutual close whose final amounts and fee leave coins in the channel moves what its deltas say, the rest locked', () => {
    const { create, channelId } = opened();
    const close = bobCloses(channelId, 80, 50, 4);
    const channel = closingChannel([create]);
    expect(channel).to.deep.equal({ initiator: alice, responder: bob, amount: 150n });
    const { node, derived } = applied(close, { channel });
    expect(derived).to.deep.equal(node);
    expect(node).to.deep.equal({ [alice]: 80n, [bob]: 50n, [LOCKED_COINS_ACCOUNT]: 16n });
  });
});

describe('stakingWithdrawal (chain/balance-deltas.ts)', () => {
  const call = (fn: string, to = contract): TxFields => ({
    type: 'ContractCallTx',
    caller_id: alice,
    contract_id: to,
    call_data: encodeCallData(functionId(fn), [address(bob), 4n * 10n ** 21n]),
    fee: 1,
    amount: 0,
  });

  it("pays the caller the amount of a staking contract's withdraw(owner, amount) that returned ok, wrapped or not", () => {
    const paid = [{ account: alice, amount: 4n * 10n ** 21n, kind: 'Chain.spend' }];
    expect(stakingWithdrawal(call('withdraw'), contract, true)).to.deep.equal(paid);
    const wrapped: TxFields = { type: 'PayingForTx', payer_id: carol, tx: { tx: call('withdraw') } };
    expect(stakingWithdrawal(wrapped, contract, true)).to.deep.equal(paid);
  });

  it('pays nothing for a failed call, another function, another contract or call data it cannot read', () => {
    expect(stakingWithdrawal(call('withdraw'), contract, false)).to.deep.equal([]);
    expect(stakingWithdrawal(call('stake'), contract, true)).to.deep.equal([]);
    expect(stakingWithdrawal(call('withdraw', encode('ct', Buffer.alloc(32, 8))), contract, true)).to.deep.equal([]);
    expect(stakingWithdrawal({ ...call('withdraw'), call_data: 'cb_AAAA' }, contract, true)).to.deep.equal([]);
  });
});
