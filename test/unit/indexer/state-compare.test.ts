/** @module The comparisons of `mdw -v --full` against the chain's state: each difference names both sides. Pure. */
import { expect } from 'chai';
import {
  aex141Differences,
  aex9Differences,
  balanceDifference,
  capped,
  channelDifferences,
  nameActive,
  nameDifferences,
  oracleDifferences,
  queryDifferences,
  type StoredChannel,
} from '../../../src/indexer/maintenance/state-compare.ts';
import type { StoredName, StoredOracle } from '../../../src/db/queries/chain-state-check.ts';

const CT = 'ct_token';
const [A, B, C] = ['ak_a', 'ak_b', 'ak_c'];

describe('state-compare (mdw -v --full against the chain state)', () => {
  it('AEX-9: an account missing on one side holds 0 there; equal balances are no difference', () => {
    const db = new Map([
      [A, '10'],
      [B, '-5'],
    ]);
    const chain = new Map([
      [A, 10n],
      [C, 2n ** 80n],
    ]);
    expect(aex9Differences(CT, db, chain)).to.deep.equal([
      `aex9 ${CT}: balance of ${B} differs: db -5 node 0`,
      `aex9 ${CT}: balance of ${C} differs: db 0 node ${2n ** 80n}`,
    ]);
    expect(aex9Differences(CT, new Map([[A, '7']]), new Map([[A, 7n]]))).to.deep.equal([]);
  });

  it('AEX-141: a token whose owner differs, or that the contract says nobody owns', () => {
    const db = new Map([
      ['1', A],
      ['2', B],
      ['3', C],
    ]);
    const chain = new Map<string, string | undefined>([
      ['1', A],
      ['2', C],
      ['3', undefined],
    ]);
    expect(aex141Differences(CT, db, chain)).to.deep.equal([
      `aex141 ${CT}: owner of token 2 differs: db ${B} node ${C}`,
      `aex141 ${CT}: owner of token 3 differs: db ${C} node (none)`,
    ]);
  });

  const name: StoredName = {
    name: 'a.chain',
    nameHash: 'nm_a',
    owner: A,
    expiresAt: 200,
    pointers: [{ key: 'account_pubkey', id: A }],
    kind: 'update',
    createdAt: 10,
    auctionEnd: 10,
  };
  const nodeName = { id: 'nm_a', owner: A, ttl: 200, pointers: [{ key: 'account_pubkey', id: A }] };

  it('names: active at the top while claimed, out of auction, not revoked, not expired', () => {
    expect(nameActive(name, 200)).to.equal(true);
    expect(nameActive(name, 201)).to.equal(false);
    expect(nameActive({ ...name, kind: 'revoke' }, 100)).to.equal(false);
    // an auction ending at 120 holds the name until then
    expect(nameActive({ ...name, kind: 'bid', auctionEnd: 120 }, 120)).to.equal(false);
    expect(nameActive({ ...name, kind: 'bid', auctionEnd: 120 }, 121)).to.equal(true);
  });

  it("names: owner, expiry and pointers against the node's, and a registration only one side has", () => {
    expect(nameDifferences(name, nodeName, 150)).to.deep.equal([]);
    expect(
      nameDifferences(name, { ...nodeName, owner: B, ttl: 210, pointers: [{ key: 'oracle_pubkey', id: 'ok_a' }] }, 150),
    ).to.deep.equal([
      `name a.chain: owner differs: db ${A} node ${B}`,
      'name a.chain: expiry differs: db 200 node 210',
      `name a.chain: pointers differs: db account_pubkey=${A} node oracle_pubkey=ok_a`,
    ]);
    expect(nameDifferences(name, undefined, 150)).to.deep.equal([
      'name a.chain: registration differs: db active (update) node none',
    ]);
    expect(nameDifferences({ ...name, kind: 'revoke' }, nodeName, 150)).to.deep.equal([
      'name a.chain: registration differs: db inactive (revoke) node active',
    ]);
    expect(nameDifferences({ ...name, kind: 'revoke' }, undefined, 150)).to.deep.equal([]);
  });

  const oracle: StoredOracle = {
    oracleId: 'ok_a',
    expiresAt: 300,
    queryFee: '20000',
    queryFormat: 'string',
    responseFormat: 'string',
    abiVersion: '0',
  };
  const nodeOracle = {
    id: 'ok_a',
    query_format: 'string',
    response_format: 'string',
    query_fee: 20000,
    ttl: 300,
    abi_version: 0,
  };

  it("oracles: active while the expiry is above the top, each field against the node's", () => {
    expect(oracleDifferences(oracle, nodeOracle, 299)).to.deep.equal([]);
    expect(oracleDifferences(oracle, undefined, 300)).to.deep.equal([]);
    expect(oracleDifferences(oracle, nodeOracle, 300)).to.deep.equal([
      'oracle ok_a: registration differs: db expired node active',
    ]);
    expect(oracleDifferences({ ...oracle, queryFee: '1' }, { ...nodeOracle, ttl: 301 }, 10)).to.deep.equal([
      'oracle ok_a: expiry differs: db 300 node 301',
      'oracle ok_a: query fee differs: db 1 node 20000',
    ]);
  });

  it('open queries: the unanswered ones that have not expired, against the ones the node lists open', () => {
    const stored = [
      { queryId: 'oq_1', senderId: A, senderNonce: '1', query: 'q', fee: '5', expiresAt: 150 },
      // expired at the top: the node no longer lists it
      { queryId: 'oq_2', senderId: A, senderNonce: '2', query: 'q', fee: '5', expiresAt: 100 },
      { queryId: 'oq_3', senderId: B, senderNonce: '1', query: 'q', fee: '5', expiresAt: 150 },
    ];
    const node = [
      { id: 'oq_1', sender_id: A, fee: 5, ttl: 150 },
      { id: 'oq_3', sender_id: B, fee: 6, ttl: 150 },
      { id: 'oq_4', sender_id: C, fee: 5, ttl: 150 },
    ];
    expect(queryDifferences('ok_a', stored, node, 100)).to.deep.equal([
      'oracle ok_a: fee of query oq_3 differs: db 5 node 6',
      'oracle ok_a: open query oq_4 differs: db none node open',
    ]);
  });

  it("channels: open while not closed, each of the node's fields, a closed one that the node has no more", () => {
    const channel: StoredChannel = {
      id: 'ch_a',
      active: true,
      initiator: A,
      responder: B,
      amount: 300n,
      channelReserve: 10n,
      lockPeriod: 5,
      round: 3n,
      soloRound: 0n,
      stateHash: 'st_x',
      initiatorAmount: 100n,
      responderAmount: 150n,
    };
    const node = {
      id: 'ch_a',
      initiator_id: A,
      responder_id: B,
      channel_amount: 300,
      channel_reserve: 10,
      lock_period: 5,
      round: 3,
      solo_round: 0,
      state_hash: 'st_x',
      initiator_amount: 100,
      responder_amount: 150,
    };
    expect(channelDifferences(channel, node)).to.deep.equal([]);
    expect(channelDifferences(channel, { ...node, channel_amount: 301, round: 4 })).to.deep.equal([
      'channel ch_a: amount differs: db 300 node 301',
      'channel ch_a: round differs: db 3 node 4',
    ]);
    // the parties' on-chain amounts, which deposits and withdrawals leave as they were
    expect(channelDifferences(channel, { ...node, initiator_amount: 99, responder_amount: 151 })).to.deep.equal([
      'channel ch_a: initiator amount differs: db 100 node 99',
      'channel ch_a: responder amount differs: db 150 node 151',
    ]);
    expect(channelDifferences({ ...channel, active: false }, undefined)).to.deep.equal([]);
    expect(channelDifferences({ ...channel, active: false }, node)).to.deep.equal([
      'channel ch_a: state differs: db closed node open',
    ]);
  });

  it('AE balances: an account the node does not have holds 0', () => {
    expect(balanceDifference(A, '0', undefined)).to.deep.equal([]);
    expect(balanceDifference(A, '5', undefined)).to.deep.equal([`account ${A}: balance differs: db 5 node (none)`]);
    expect(balanceDifference(A, '5', 6n)).to.deep.equal([`account ${A}: balance differs: db 5 node 6`]);
  });

  it('writes out a few differences of one entry and counts the rest', () => {
    expect(capped(['a', 'b', 'c'], 'aex9 ct', 2)).to.deep.equal(['a', 'b', 'aex9 ct: 1 more difference(s)']);
    expect(capped(['a', 'b'], 'aex9 ct', 2)).to.deep.equal(['a', 'b']);
  });
});
