/** @module The seed's transaction rules as pure functions over a world state (no HTTP, no signing). */
import { expect } from 'chai';
import { SOLO_ROUND_SWITCH_HEIGHT } from '../../src/chain/channel-state.ts';
import { LOCKED_COINS_ACCOUNT } from '../../src/chain/derived-ids.ts';
import { encode } from '../../src/chain/encoding.ts';
import { ttlFee } from '../../src/devnode/rules/fees.ts';
import { claimMaxExpiration, Protocol } from '../../src/chain/aens.ts';
import { minimumNameFee } from '../../src/chain/aens.ts';
import { commitmentId, nameHash, oracleQueryId } from '../../src/devnode/ids.ts';
import { TxRejected, applyTx, minimumFee } from '../../src/devnode/rules/apply.ts';
import { newState, commitState, type WorldState } from '../../src/devnode/store/state.ts';
import { FATE_UNIT } from '../../src/devnode/contracts/fate-contract.ts';
import { encodeSignedTx, encodeTx, type TxFields } from '../../src/devnode/tx-codec.ts';
import { poiOfBalances, treesOfBalances } from '../support/channel-txs.ts';

const NAME_CLAIM_MAX_EXPIRATION = claimMaxExpiration(Protocol.CERES);
const alice = encode('ak', Buffer.alloc(32, 1));
const bob = encode('ak', Buffer.alloc(32, 2));
const aliceOracle = encode('ok', Buffer.alloc(32, 1));

function world(): WorldState {
  const s = newState();
  s.accounts.set(alice, { balance: 10n ** 20n, nonce: 0 });
  s.accounts.set(bob, { balance: 1000n, nonce: 0 });
  return s;
}

function nextNonce(s: WorldState, id: string): number {
  return (s.accounts.get(id)?.nonce ?? 0) + 1;
}

/** apply applies `tx` in a micro block at `height` after key block `generation` (the next height on a hyperchain). */
function apply(s: WorldState, tx: TxFields, height: number, generation = height) {
  return applyTx(
    s,
    { nonce: nextNonce(s, String(tx.sender_id ?? tx.account_id ?? tx.oracle_id ?? '').replace('ok_', 'ak_')), ...tx },
    { height, generation, txHash: TX_HASH },
  );
}

/** TX_HASH: the hash each applied transaction carries (a force progress names its call object's contract by it). */
const TX_HASH = encode('th', Buffer.alloc(32, 7));

const register = (ttl: number, fee: number, queryFee = 10): TxFields => ({
  type: 'OracleRegisterTx',
  account_id: alice,
  query_format: 'q',
  response_format: 'r',
  query_fee: queryFee,
  oracle_ttl: { type: 'delta', value: ttl },
  fee,
  abi_version: 0,
});

const extend = (ttl: number): TxFields => ({
  type: 'OracleExtendTx',
  oracle_id: aliceOracle,
  oracle_ttl: { type: 'delta', value: ttl },
  fee: 1,
});

/** query is Bob's query to Alice's oracle (its fee the oracle's default 10). */
const query = (qttl: number, rttl: number): TxFields => ({
  type: 'OracleQueryTx',
  sender_id: bob,
  oracle_id: aliceOracle,
  query: 'q',
  query_fee: 10,
  query_ttl: { type: 'delta', value: qttl },
  response_ttl: { type: 'delta', value: rttl },
  fee: 2,
});

const respond = (queryId: string, rttl: number): TxFields => ({
  type: 'OracleRespondTx',
  oracle_id: aliceOracle,
  query_id: queryId,
  response: 'a',
  response_ttl: { type: 'delta', value: rttl },
  fee: 2,
});

/** channelCreate opens a channel of Alice and Bob, 100 each, locked for 5 blocks when solo-closed. */
const channelCreate: TxFields = {
  type: 'ChannelCreateTx',
  initiator_id: alice,
  responder_id: bob,
  initiator_amount: 100,
  responder_amount: 100,
  channel_reserve: 1,
  lock_period: 5,
  fee: 1,
  delegate_ids: [],
  state_hash: encode('st', Buffer.alloc(32)),
  sender_id: alice,
};

/** offChain is a channel's off-chain state of `round` as a solo transaction's payload (its signatures unchecked). */
const offChain = (channelId: string, round: number): string => {
  const state = {
    type: 'ChannelOffChainTx',
    version: 2,
    channel_id: channelId,
    round,
    state_hash: encode('st', Buffer.alloc(32, round)),
  };
  return encode('tx', encodeSignedTx([], encodeTx(state)));
};

/** closeSolo is Alice's solo close of a channel on its last on-chain state. */
const closeSolo = (channelId: string): TxFields => ({
  type: 'ChannelCloseSoloTx',
  channel_id: channelId,
  from_id: alice,
  payload: 'tx_',
  poi: '',
  fee: 1,
  sender_id: alice,
});

/** slashOf is Bob's slash of a channel by its off-chain state of round 2 and the proof `poi`. */
const slashOf = (channelId: string, poi: string): TxFields => ({
  type: 'ChannelSlashTx',
  channel_id: channelId,
  from_id: bob,
  payload: offChain(channelId, 2),
  poi,
  fee: 1,
  sender_id: bob,
});

/** closeMutual is Alice's mutual close of a channel paying her `initiatorFinal` and Bob 100. */
const closeMutual = (channelId: string, initiatorFinal: number, fee: number): TxFields => ({
  type: 'ChannelCloseMutualTx',
  channel_id: channelId,
  from_id: alice,
  initiator_amount_final: initiatorFinal,
  responder_amount_final: 100,
  fee,
  sender_id: alice,
});

/** forceProgress is Bob's force progress of a channel to `round`, on a co-signed payload unless `payload` is given. */
const forceProgress = (channelId: string, round: number, payload = offChain(channelId, round - 1)): TxFields => ({
  type: 'ChannelForceProgressTx',
  channel_id: channelId,
  from_id: bob,
  payload,
  round,
  update: {},
  state_hash: encode('st', Buffer.alloc(32, round)),
  offchain_trees: encode('ss', Buffer.alloc(16)),
  fee: 1,
  sender_id: bob,
});

describe('devnode rules', () => {
  it('computes the seed minimum oracle fee: 1 plus 1 per started 1000 blocks', () => {
    expect([0, 50, 1000, 1001, 4500].map(ttlFee)).to.deep.equal([1n, 2n, 2n, 3n, 6n]);
    const s = world();
    expect(minimumFee(register(4500, 0), s, 10)).to.equal(6n);
    expect(minimumFee({ ...register(0, 0), oracle_ttl: { type: 'block', value: 2010 } }, s, 10)).to.equal(3n);
    expect(minimumFee({ type: 'SpendTx' }, s, 10)).to.equal(1n);
  });

  it('refuses a fee below the minimum, a wrong nonce, an expired ttl and a missing account', () => {
    const s = world();
    expect(() => apply(s, register(4500, 5), 1)).to.throw(TxRejected, /fee too low/);
    expect(() => applyTx(s, { ...register(50, 2), nonce: 2 }, { height: 1, generation: 1, txHash: '' })).to.throw(
      TxRejected,
      /not the next nonce/,
    );
    expect(() => apply(s, { ...register(50, 2), ttl: 3 }, 4)).to.throw(TxRejected, /ttl 3 has expired/);
    const stranger = encode('ak', Buffer.alloc(32, 9));
    expect(() =>
      applyTx(
        s,
        { type: 'SpendTx', sender_id: stranger, recipient_id: bob, amount: 1, fee: 1, nonce: 1 },
        { height: 1, generation: 1, txHash: '' },
      ),
    ).to.throw(TxRejected, /insufficient balance/);
  });

  it('refuses spends beyond the balance (fee included) and credits the recipient otherwise', () => {
    const s = world();
    expect(() => apply(s, { type: 'SpendTx', sender_id: bob, recipient_id: alice, amount: 1000, fee: 1 }, 1)).to.throw(
      TxRejected,
      /insufficient balance/,
    );
    apply(s, { type: 'SpendTx', sender_id: bob, recipient_id: alice, amount: 999, fee: 1 }, 1);
    expect(s.accounts.get(bob)).to.deep.equal({ balance: 0n, nonce: 1 });
    expect(s.accounts.get(alice)!.balance).to.equal(10n ** 20n + 999n);
  });

  it('sets oracle expiry from the register TTL and height, and extend adds to it', () => {
    const s = world();
    apply(s, register(50, 2), 7);
    expect(s.oracles.get(aliceOracle)!.expires).to.equal(57);
    apply(s, { type: 'OracleExtendTx', oracle_id: aliceOracle, oracle_ttl: { type: 'delta', value: 10 }, fee: 1 }, 8);
    expect(s.oracles.get(aliceOracle)!.expires).to.equal(67);
  });

  it('queries need a query fee at least the oracle fee and must end before the oracle; responses need the query response_ttl', () => {
    const s = world();
    apply(s, register(100, 2, 50), 1);
    const query = (queryFee: number, qttl: number): TxFields => ({
      type: 'OracleQueryTx',
      sender_id: bob,
      oracle_id: aliceOracle,
      query: 'q',
      query_fee: queryFee,
      query_ttl: { type: 'delta', value: qttl },
      response_ttl: { type: 'delta', value: 10 },
      fee: 2,
    });
    expect(() => apply(s, query(49, 10), 2)).to.throw(TxRejected, /query_fee_too_low/);
    expect(() => apply(s, query(50, 95), 2)).to.throw(TxRejected, /too_long_ttl/);
    const effect = apply(s, query(50, 10), 2);
    const id = oracleQueryId(bob, 1, aliceOracle);
    expect(effect.query).to.deep.equal({ id, expires: 12 });
    expect(s.accounts.get(bob)!.balance).to.equal(1000n - 52n);
    const respond = (rttl: number): TxFields => ({
      type: 'OracleRespondTx',
      oracle_id: aliceOracle,
      query_id: id,
      response: 'a',
      response_ttl: { type: 'delta', value: rttl },
      fee: 2,
    });
    expect(() => apply(s, respond(11), 3)).to.throw(TxRejected, /wrong_response_ttl/);
    apply(s, respond(10), 3);
    expect(s.queries.get(id)!.response).to.equal('a');
  });

  it('keeps an oracle ending at E through generation E: the node prunes it with key block E + 1, never by a tx height', () => {
    const s = world();
    apply(s, register(10, 2), 1);
    apply(s, extend(10), 11);
    expect(s.oracles.get(aliceOracle)!.expires).to.equal(21);
    // a query ending with the oracle (aeprimop: height + query_ttl + response_ttl within its ttl), answered at once
    apply(s, query(0, 0), 21);
    apply(s, respond(oracleQueryId(bob, 1, aliceOracle), 0), 21);
    expect(() => apply(newState(s), register(10, 2), 21)).to.throw(TxRejected, /already an oracle/);
    expect(() => apply(newState(s), extend(10), 22)).to.throw(TxRejected, /not found/);
    apply(s, register(10, 2), 22);
    expect(s.oracles.get(aliceOracle)!.expires).to.equal(32);
  });

  it('extends an oracle and answers a query in the generation they end in, whose micro blocks carry the next height on a hyperchain', () => {
    const s = world();
    apply(s, register(20, 2), 2, 1);
    expect(s.oracles.get(aliceOracle)!.expires).to.equal(22);
    expect(apply(s, query(10, 5), 3, 2).query!.expires).to.equal(13);
    const id = oracleQueryId(bob, 1, aliceOracle);
    expect(() => apply(newState(s), respond(id, 5), 15, 14)).to.throw(TxRejected, /expired/);
    apply(s, respond(id, 5), 14, 13);
    expect(s.queries.get(id)!.response).to.equal('a');
    expect(() => apply(newState(s), extend(5), 24, 23)).to.throw(TxRejected, /not found/);
    apply(s, extend(5), 23, 22);
    expect(s.oracles.get(aliceOracle)!.expires).to.equal(27);
  });

  it('claims only after the preclaim generation, for 180000 blocks; name_ttl of an update is relative', () => {
    const s = world();
    const name = 'rulesofthedevnodenames.chain';
    apply(s, { type: 'NamePreclaimTx', account_id: alice, commitment_id: commitmentId(name, 42), fee: 1 }, 10);
    const claim: TxFields = {
      type: 'NameClaimTx',
      account_id: alice,
      name,
      name_salt: 42,
      name_fee: minimumNameFee(name),
      fee: 1,
    };
    const layer = newState(s);
    expect(() => apply(layer, claim, 10)).to.throw(TxRejected, /same generation as its preclaim/);
    apply(s, claim, 11);
    const id = nameHash(name);
    expect(s.names.get(id)).to.include({ owner: alice, expires: 11 + NAME_CLAIM_MAX_EXPIRATION });
    expect(() =>
      apply(
        newState(s),
        { type: 'NameUpdateTx', account_id: alice, name_id: id, name_ttl: 180001, pointers: [], client_ttl: 0, fee: 1 },
        12,
      ),
    ).to.throw(TxRejected, /exceeds 180000/);
    apply(
      s,
      {
        type: 'NameUpdateTx',
        account_id: alice,
        name_id: id,
        name_ttl: 300,
        pointers: [{ key: 'account_pubkey', id: bob }],
        client_ttl: 0,
        fee: 1,
      },
      20,
    );
    expect(s.names.get(id)!.expires).to.equal(320);
    expect(() => apply(newState(s), { type: 'NameRevokeTx', account_id: bob, name_id: id, fee: 1 }, 21)).to.throw(
      TxRejected,
      /not owned/,
    );
  });

  it('resolves a spend to a name through its account_pubkey pointer and refuses names without one', () => {
    const s = world();
    const pay = 'payingthroughadevnodename.chain';
    apply(s, { type: 'NamePreclaimTx', account_id: alice, commitment_id: commitmentId(pay, 1), fee: 1 }, 1);
    apply(
      s,
      { type: 'NameClaimTx', account_id: alice, name: pay, name_salt: 1, name_fee: minimumNameFee(pay), fee: 1 },
      2,
    );
    const spend: TxFields = {
      type: 'SpendTx',
      sender_id: alice,
      recipient_id: nameHash(pay),
      amount: 5,
      fee: 1,
    };
    expect(() => apply(newState(s), spend, 3)).to.throw(TxRejected, /no account_pubkey pointer/);
    apply(
      s,
      {
        type: 'NameUpdateTx',
        account_id: alice,
        name_id: nameHash(pay),
        name_ttl: 100,
        pointers: [{ key: 'account_pubkey', id: bob }],
        client_ttl: 0,
        fee: 1,
      },
      3,
    );
    apply(s, spend, 4);
    expect(s.accounts.get(bob)!.balance).to.equal(1005n);
  });

  it('leaves the state untouched below a layer that a rejected transaction wrote to', () => {
    const s = world();
    const layer = newState(s);
    expect(() =>
      apply(layer, { type: 'SpendTx', sender_id: bob, recipient_id: alice, amount: 5000, fee: 1 }, 1),
    ).to.throw(TxRejected);
    expect(s.accounts.get(bob)).to.deep.equal({ balance: 1000n, nonce: 0 });
    const ok = newState(s);
    apply(ok, { type: 'SpendTx', sender_id: bob, recipient_id: alice, amount: 5, fee: 1 }, 1);
    commitState(ok);
    expect(s.accounts.get(bob)).to.deep.equal({ balance: 994n, nonce: 1 });
  });

  it('closes a channel by a mutual close whose final amounts and fee the channel holds, locking what they leave', () => {
    const s = world();
    apply(
      s,
      {
        type: 'ChannelCreateTx',
        initiator_id: alice,
        responder_id: bob,
        initiator_amount: 100,
        responder_amount: 100,
        channel_reserve: 1,
        lock_period: 1,
        fee: 1,
        delegate_ids: [],
        state_hash: encode('st', Buffer.alloc(32)),
        sender_id: alice,
      },
      1,
    );
    const channelId = [...s.channels.entries()][0]![0];
    const close = (i: number): TxFields => closeMutual(channelId, i, 1);
    expect(() => apply(newState(s), close(100), 2)).to.throw(TxRejected, /wrong_amounts/);
    const exact = newState(s);
    apply(exact, close(99), 2);
    expect(exact.channels.get(channelId)).to.equal(undefined);
    expect(exact.accounts.get(LOCKED_COINS_ACCOUNT), 'nothing left: no lock, no account').to.equal(undefined);
    // the node takes final amounts below the channel's and locks the rest (aeprimop channel_close_mutual)
    apply(s, close(90), 2);
    expect(s.channels.get(channelId)).to.equal(undefined);
    expect(s.accounts.get(LOCKED_COINS_ACCOUNT)).to.deep.equal({ balance: 9n, nonce: 0 });
  });

  it('restarts a closing channel’s lock at a force progress, from its height (aesc_channels:force_progress)', () => {
    const s = world();
    apply(s, channelCreate, 1);
    const channelId = [...s.channels.entries()][0]![0];
    apply(s, forceProgress(channelId, 2), 2);
    expect(s.channels.get(channelId)).to.include({ round: 2, lockedUntil: 0 });
    apply(s, closeSolo(channelId), 10);
    expect(s.channels.get(channelId)).to.include({ lockedUntil: 15 });
    apply(s, forceProgress(channelId, 3), 12, 11);
    expect(s.channels.get(channelId)).to.include({ round: 3, lockedUntil: 17 });
  });

  it('charges a force progress’s sender the fee and its flat gas at its off-chain call’s price, and tells the call (aesc_utils:process_force_progress)', () => {
    const s = world();
    apply(s, channelCreate, 1);
    const channelId = [...s.channels.entries()][0]![0];
    s.accounts.set(bob, { ...s.accounts.get(bob)!, balance: 10n ** 6n });
    const before = 10n ** 6n;
    const update = { op: 'OffChainCallContract', caller_id: alice, gas_price: 3, gas: 5000 };
    const effect = apply(s, { ...forceProgress(channelId, 2), update }, 2);
    // the flat 1000 gas (at most the limit: 200 of a 200 limit) × 3, and the fee 1; the caller (Alice) pays nothing
    expect(before - s.accounts.get(bob)!.balance).to.equal(3001n);
    expect(effect.callInfo).to.deep.equal({
      caller_id: alice,
      caller_nonce: 2,
      height: 2,
      contract_id: encode('ct', Buffer.alloc(32, 7)),
      gas_price: 3,
      gas_used: 1000,
      log: [],
      return_value: FATE_UNIT,
      return_type: 'ok',
    });
    const low = apply(s, { ...forceProgress(channelId, 3), update: { ...update, gas: 200 } }, 3);
    expect(low.callInfo).to.include({ gas_used: 200 });
    expect(before - s.accounts.get(bob)!.balance).to.equal(3001n + 601n);
    // a sender that cannot pay the gas is refused, the channel unchanged
    expect(() =>
      apply(newState(s), { ...forceProgress(channelId, 4), update: { ...update, gas_price: 10n ** 6n } }, 4),
    ).to.throw(TxRejected, /insufficient balance/);
  });

  it('keeps round, solo_round and state_hash as the node does (aesc_channels, aesc_utils:check_round_greater_than_last)', () => {
    const s = world();
    apply(s, channelCreate, 1);
    const channelId = [...s.channels.entries()][0]![0];
    const state = (w = s): object => {
      const { round, soloRound, stateHash } = w.channels.get(channelId)!;
      return { round, soloRound, stateHash };
    };
    const at = (round: number): string => encode('st', Buffer.alloc(32, round));
    apply(s, forceProgress(channelId, 2, 'tx_'), 2);
    apply(s, forceProgress(channelId, 3, 'tx_'), 3);
    // the first of a chain of forced states is kept
    expect(state()).to.deep.equal({ round: 3, soloRound: 2, stateHash: at(3) });
    // a co-signed state replaces them from the first on (its round above solo_round - 1), and resets solo_round
    const deposit: TxFields = {
      type: 'ChannelDepositTx',
      channel_id: channelId,
      from_id: alice,
      amount: 1,
      state_hash: at(2),
      round: 2,
      fee: 1,
      sender_id: alice,
    };
    expect(() => apply(newState(s), { ...deposit, round: 1 }, 4)).to.throw(TxRejected, /old_round/);
    apply(s, deposit, 4);
    expect(state()).to.deep.equal({ round: 2, soloRound: 0, stateHash: at(2) });
    apply(s, forceProgress(channelId, 3), 5);
    expect(state()).to.deep.equal({ round: 3, soloRound: 3, stateHash: at(3) });
    // below the switch height a force progress and a solo close or slash on a co-signed payload keep solo_round
    apply(s, forceProgress(channelId, 4), 6);
    expect(state()).to.deep.equal({ round: 4, soloRound: 3, stateHash: at(4) });
    const [early, late] = [newState(s), newState(s)];
    apply(early, { ...closeSolo(channelId), payload: offChain(channelId, 5) }, 7);
    expect(state(early)).to.deep.equal({ round: 5, soloRound: 3, stateHash: at(5) });
    const slash = { ...closeSolo(channelId), type: 'ChannelSlashTx', from_id: bob, sender_id: bob };
    apply(early, { ...slash, payload: offChain(channelId, 6) }, 8);
    expect(state(early)).to.deep.equal({ round: 6, soloRound: 3, stateHash: at(6) });
    // from it on, a force progress on one starts a new chain of forced states (force_progress_with_payload) and a
    // solo close on one resets solo_round (close_solo_with_payload)
    apply(late, forceProgress(channelId, 5), SOLO_ROUND_SWITCH_HEIGHT);
    expect(state(late)).to.deep.equal({ round: 5, soloRound: 5, stateHash: at(5) });
    apply(late, { ...closeSolo(channelId), payload: offChain(channelId, 6) }, SOLO_ROUND_SWITCH_HEIGHT);
    expect(state(late)).to.deep.equal({ round: 6, soloRound: 0, stateHash: at(6) });
  });

  it('slashes a closing channel after its lock ended too, and settles it from locked_until on (aesc_channels)', () => {
    const s = world();
    apply(s, channelCreate, 1);
    const channelId = [...s.channels.entries()][0]![0];
    apply(s, closeSolo(channelId), 10);
    // a slash needs a closing channel only (aesc_utils:check_slash_payload; aesc_txs_SUITE slash_after_lock_timer)
    const slash = slashOf(channelId, '');
    apply(s, slash, 16);
    expect(s.channels.get(channelId)).to.include({ round: 2, lockedUntil: 21 });
    // a settle from locked_until on (aesc_channels:is_solo_closed: LockedUntil =< Height)
    const settle: TxFields = {
      type: 'ChannelSettleTx',
      channel_id: channelId,
      from_id: alice,
      initiator_amount_final: 100,
      responder_amount_final: 100,
      fee: 1,
      sender_id: alice,
    };
    expect(() => apply(newState(s), settle, 20)).to.throw(TxRejected, /not closed yet/);
    apply(s, settle, 21);
    expect(s.channels.get(channelId)).to.equal(undefined);
  });

  it("settles the amounts a solo close's proof holds, each its party's, and locks what they leave of the channel's amount (aeprimop channel_settle, issue 88)", () => {
    const s = world();
    apply(s, channelCreate, 1);
    const channelId = [...s.channels.entries()][0]![0];
    // the off-chain state the proof holds: 30 of the channel's 200 in neither party's account (an off-chain contract's)
    apply(
      s,
      {
        ...closeSolo(channelId),
        poi: poiOfBalances([
          [alice, 120n],
          [bob, 50n],
        ]),
      },
      2,
    );
    expect(s.channels.get(channelId)).to.include({ amount: 200n, initiatorAmount: 120n, responderAmount: 50n });
    const settle = (i: number, r: number): TxFields => ({
      type: 'ChannelSettleTx',
      channel_id: channelId,
      from_id: alice,
      initiator_amount_final: i,
      responder_amount_final: r,
      fee: 1,
      sender_id: alice,
    });
    // each final amount must be its party's on-chain one, their sum at most the channel's amount
    expect(() => apply(newState(s), settle(100, 100), 7)).to.throw(TxRejected, /^wrong_amt:/);
    expect(() => apply(newState(s), settle(120, 49), 7)).to.throw(TxRejected, /^wrong_amt:/);
    const [aliceBefore, bobBefore] = [s.accounts.get(alice)!.balance, s.accounts.get(bob)!.balance];
    apply(s, settle(120, 50), 7);
    expect(s.channels.get(channelId)).to.equal(undefined);
    expect(s.accounts.get(alice)!.balance).to.equal(aliceBefore - 1n + 120n);
    expect(s.accounts.get(bob)!.balance).to.equal(bobBefore + 50n);
    expect(s.accounts.get(LOCKED_COINS_ACCOUNT)).to.deep.equal({ balance: 30n, nonce: 0 });
    // a slash's proof sets them too
    const t = world();
    apply(t, channelCreate, 1);
    apply(t, closeSolo(channelId), 2);
    const slash = slashOf(
      channelId,
      poiOfBalances([
        [alice, 150n],
        [bob, 60n],
      ]),
    );
    // a proof whose amounts are more than the channel's is refused (aesc_utils:check_peers_and_amounts_in_poi)
    expect(() => apply(newState(t), slash, 3)).to.throw(TxRejected, /^poi_amounts_change_channel_funds:/);
    apply(
      t,
      {
        ...slash,
        poi: poiOfBalances([
          [alice, 150n],
          [bob, 50n],
        ]),
      },
      3,
    );
    expect(t.channels.get(channelId)).to.include({ initiatorAmount: 150n, responderAmount: 50n });
    // an empty proof (the devnode's own traffic) keeps the on-chain amounts
    const u = world();
    apply(u, channelCreate, 1);
    apply(u, closeSolo(channelId), 2);
    apply(u, settle(100, 100), 7);
    expect(u.accounts.get(LOCKED_COINS_ACCOUNT)).to.equal(undefined);
  });

  it("moves the channel's amount only by deposits and withdrawals, the parties' amounts their creation's until a force progress's trees set them (aesc_channels deposit, withdraw, force_progress)", () => {
    const s = world();
    apply(s, { ...channelCreate, channel_reserve: 20 }, 1);
    const channelId = [...s.channels.entries()][0]![0];
    s.accounts.set(bob, { ...s.accounts.get(bob)!, balance: 10n ** 6n });
    const move = (type: string, party: 'from_id' | 'to_id', amount: number, round: number): TxFields => ({
      type,
      channel_id: channelId,
      [party]: alice,
      amount,
      state_hash: encode('st', Buffer.alloc(32, round)),
      round,
      fee: 1,
      sender_id: alice,
    });
    const aliceBefore = s.accounts.get(alice)!.balance;
    apply(s, move('ChannelDepositTx', 'from_id', 50, 2), 2);
    expect(s.channels.get(channelId)).to.include({ amount: 250n, initiatorAmount: 100n, responderAmount: 100n });
    // a withdrawal may take more than the party's on-chain amount, as long as twice the reserve stays
    // (aeprimop assert_channel_withdraw_amount)
    expect(() => apply(newState(s), move('ChannelWithdrawTx', 'to_id', 211, 3), 3)).to.throw(
      TxRejected,
      /^not_enough_channel_funds:/,
    );
    apply(s, move('ChannelWithdrawTx', 'to_id', 210, 3), 3);
    expect(s.channels.get(channelId)).to.include({ amount: 40n, initiatorAmount: 100n, responderAmount: 100n });
    expect(s.accounts.get(alice)!.balance).to.equal(aliceBefore - 51n - 1n + 210n);
    // a force progress: its trees' balances, less its call's amount for the caller (the contract's then)
    const forced = (round: number, balances: [bigint, bigint], amount: number): TxFields => ({
      ...forceProgress(channelId, round),
      update: { op: 'OffChainCallContract', caller_id: alice, amount, gas_price: 1, gas: 1000 },
      offchain_trees: treesOfBalances([
        [alice, balances[0]],
        [bob, balances[1]],
      ]),
    });
    apply(s, forced(4, [30n, 10n], 5), 4);
    expect(s.channels.get(channelId)).to.include({ amount: 40n, initiatorAmount: 25n, responderAmount: 10n });
    // a caller that would keep less than the reserve moves nothing (the call fails: aesc_offchain_update remove_tokens)
    apply(s, forced(5, [30n, 10n], 11), 5);
    expect(s.channels.get(channelId)).to.include({ round: 5, initiatorAmount: 30n, responderAmount: 10n });
    // trees without both parties leave the amounts as they were
    apply(s, { ...forced(6, [1n, 1n], 0), offchain_trees: encode('ss', Buffer.alloc(16)) }, 6);
    expect(s.channels.get(channelId)).to.include({ round: 6, initiatorAmount: 30n, responderAmount: 10n });
    // on a closing channel, balances above the channel's amount leave the channel as it was, the fee paid
    apply(s, closeSolo(channelId), 7);
    const bobBefore = s.accounts.get(bob)!.balance;
    apply(s, forced(7, [35n, 10n], 0), 8);
    expect(s.channels.get(channelId)).to.include({ round: 6, initiatorAmount: 30n, responderAmount: 10n });
    expect(bobBefore - s.accounts.get(bob)!.balance, 'the fee and the flat gas').to.equal(1001n);
    apply(s, forced(7, [28n, 12n], 0), 9);
    expect(s.channels.get(channelId)).to.include({ round: 7, initiatorAmount: 28n, responderAmount: 12n });
  });

  it("takes a paid-for mutual close whose final amounts alone are the channel's amount, its fee the payer's (aeprimop channel_close_mutual, issue 88)", () => {
    const s = world();
    const carol = encode('ak', Buffer.alloc(32, 3));
    s.accounts.set(carol, { balance: 1000n, nonce: 0 });
    apply(s, channelCreate, 1);
    const channelId = [...s.channels.entries()][0]![0];
    const close = (i: number): TxFields => ({ ...closeMutual(channelId, i, 3), nonce: nextNonce(s, alice) });
    const paid = (inner: TxFields): TxFields => ({
      type: 'PayingForTx',
      payer_id: carol,
      fee: 2,
      nonce: nextNonce(s, carol),
      tx: { tx: inner, signatures: [] },
    });
    expect(() => applyTx(newState(s), paid(close(101)), { height: 2, generation: 2, txHash: TX_HASH })).to.throw(
      TxRejected,
      /^wrong_amounts:/,
    );
    const [aliceBefore, bobBefore] = [s.accounts.get(alice)!.balance, s.accounts.get(bob)!.balance];
    applyTx(s, paid(close(100)), { height: 2, generation: 2, txHash: TX_HASH });
    expect(s.channels.get(channelId)).to.equal(undefined);
    expect(s.accounts.get(alice)!.balance).to.equal(aliceBefore + 100n);
    expect(s.accounts.get(bob)!.balance).to.equal(bobBefore + 100n);
    expect(s.accounts.get(carol)).to.deep.equal({ balance: 1000n - 2n - 3n, nonce: 1 });
    expect(s.accounts.get(LOCKED_COINS_ACCOUNT), 'nothing left in the channel').to.equal(undefined);
  });

  it("makes a PayingForTx's payer pay a GAMetaTx's fee and gas and its inner transaction's fee (aeprimop establish_payer, issue 88)", () => {
    const s = world();
    const [ga, carol] = [4, 3].map((n) => encode('ak', Buffer.alloc(32, n))) as [string, string];
    s.accounts.set(carol, { balance: 10n ** 18n, nonce: 0 });
    s.accounts.set(ga, {
      balance: 1000n,
      nonce: 1,
      ga: { contractId: encode('ct', Buffer.alloc(32, 4)), authFun: '0x' },
    });
    const spend: TxFields = {
      type: 'SpendTx',
      sender_id: ga,
      recipient_id: bob,
      amount: 400,
      fee: 5,
      nonce: 0,
      payload: 'ba_',
    };
    const meta: TxFields = {
      type: 'GAMetaTx',
      ga_id: ga,
      auth_data: encode('cb', Buffer.alloc(4)),
      abi_version: 3,
      fee: 7,
      gas: 5000,
      gas_price: 1_000_000_000,
      tx: { tx: spend, signatures: [] },
    };
    const paid: TxFields = { type: 'PayingForTx', payer_id: carol, fee: 2, nonce: 1, tx: { tx: meta, signatures: [] } };
    const effect = applyTx(s, paid, { height: 2, generation: 2, txHash: TX_HASH });
    const gas = BigInt(effect.gaInfo!.gas_used as number) * 1_000_000_000n;
    expect(effect.gaInfo).to.include({ return_type: 'ok' });
    // the generalized account pays the amount only, the payer every fee and the authentication's gas
    expect(s.accounts.get(ga)!.balance).to.equal(600n);
    expect(s.accounts.get(bob)!.balance).to.equal(1400n);
    expect(s.accounts.get(carol)).to.deep.equal({ balance: 10n ** 18n - 2n - 7n - gas - 5n, nonce: 1 });
  });

  it('sets a channel’s delegates by a party on its last or a newer state, the fee paid (ChannelSetDelegatesTx, issue 39)', () => {
    const s = world();
    const carol = encode('ak', Buffer.alloc(32, 3));
    const create: TxFields = {
      type: 'ChannelCreateTx',
      initiator_id: alice,
      responder_id: bob,
      initiator_amount: 100,
      responder_amount: 100,
      channel_reserve: 1,
      lock_period: 1,
      fee: 1,
      delegate_ids: { initiator: [], responder: [] },
      state_hash: encode('st', Buffer.alloc(32)),
      sender_id: alice,
    };
    apply(s, create, 1);
    const channelId = [...s.channels.entries()][0]![0];
    s.accounts.set(carol, { balance: 1000n, nonce: 0 });
    const set = (round: number, payload = 'tx_', from = alice): TxFields => ({
      type: 'ChannelSetDelegatesTx',
      channel_id: channelId,
      from_id: from,
      initiator_delegate_ids: [carol],
      responder_delegate_ids: [bob],
      payload,
      state_hash: encode('st', Buffer.alloc(32, payload === 'tx_' ? 0 : round)),
      round,
      fee: 7,
      sender_id: from,
    });
    // an empty payload names the last on-chain state, which the tx repeats (aesc_utils:check_set_delegates)
    expect(() => apply(newState(s), set(2), 2)).to.throw(TxRejected, /unexpected_round/);
    expect(() => apply(newState(s), set(1, 'tx_', carol), 2)).to.throw(TxRejected, /account_not_peer/);
    const before = s.accounts.get(alice)!.balance;
    apply(s, set(1), 2);
    expect(s.channels.get(channelId)).to.include({ round: 1, stateHash: encode('st', Buffer.alloc(32)) });
    expect(s.channels.get(channelId)!.delegateIds).to.deep.equal([carol, bob]);
    expect(s.accounts.get(alice)!.balance).to.equal(before - 7n);
    // a newer co-signed state is brought on chain as by a snapshot (process_set_delegates)
    expect(() => apply(newState(s), set(1, offChain(channelId, 1)), 3)).to.throw(TxRejected, /old_round/);
    apply(s, set(2, offChain(channelId, 2)), 3);
    expect(s.channels.get(channelId)).to.include({ round: 2, stateHash: encode('st', Buffer.alloc(32, 2)) });
  });

  it('takes an HCVoteTx from an existing voter without fee or nonce, and changes no balance (issue 39)', () => {
    const s = world();
    const vote: TxFields = { type: 'HCVoteTx', version: 1, voter_id: alice, epoch: 2, data: { epoch: '2' } };
    applyTx(s, vote, { height: 3, generation: 3, txHash: 'th_vote' });
    expect(s.accounts.get(alice)).to.deep.equal({ balance: 10n ** 20n, nonce: 0 });
    const nobody = encode('ak', Buffer.alloc(32, 9));
    expect(() => applyTx(s, { ...vote, voter_id: nobody }, { height: 3, generation: 3, txHash: 'th_x' })).to.throw(
      TxRejected,
      /not found/,
    );
  });
});
