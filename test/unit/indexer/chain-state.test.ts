/**
 * @module Name, oracle and channel state folds: claims, auctions, bids, updates, transfers, revokes, extends; queries
 * sent to names; a batch's channel transactions from their channels' stored states.
 */
import { expect } from 'chai';
import { MemoryAccount, oracleQueryId, produceNameId } from '@aeternity/aepp-sdk';
import type { NamePointer } from '../../../src/chain/aens.ts';
import { encode } from '../../../src/chain/encoding.ts';
import { channelState, type ChannelState, type ChannelTx } from '../../../src/chain/channel-state.ts';
import { treesOfBalances } from '../../support/channel-txs.ts';
import {
  foldChannelEvents,
  foldNameActions,
  foldOracleActions,
  resolveNameQueries,
  resolveNameReferences,
  type NameState,
} from '../../../src/indexer/rows/chain-state.ts';
import type { NameAction, NameOracleQuery, NameReferenceRow, OracleAction } from '../../../src/indexer/rows/rows.ts';

/** pointer is a name pointer as a node renders it: `encoded_key` the `ba_` of the key's UTF-8 bytes */
const pointer = (key: string, id: string): NamePointer => ({ encoded_key: encode('ba', Buffer.from(key)), id, key });
const at = (height: number, txIndex = 0) => ({ height, microIndex: 0, txIndex, txHash: `th_${height}_${txIndex}` });
/** act is where an action is; its micro block carries `blockHeight` (the generation's but on a hyperchain). */
const act = (height: number, txIndex = 0, blockHeight = height) => ({ ...at(height, txIndex), blockHeight });
/** register is an oracle's register action at `position` with a TTL (its other fields the same in every case) */
const register = (
  position: ReturnType<typeof act>,
  oracleId: string,
  ttl: { type: string; value: number },
): OracleAction => ({
  ...position,
  oracleId,
  kind: 'register',
  ttl,
  queryFee: '5',
  queryFormat: 'q',
  responseFormat: 'r',
  abiVersion: '0',
});

describe('foldNameActions(prior, actions)', () => {
  it('opens an auction for a short Lima+ name, extends it on a bid, and gives the winner the name', () => {
    const actions: NameAction[] = [
      {
        ...act(100),
        protocol: 5,
        nameHash: 'nm_a',
        account: 'ak_1',
        kind: 'claim',
        name: 'Abcd.chain',
        nameFee: '10',
        salt: 5n,
      },
      {
        ...act(200),
        protocol: 5,
        nameHash: 'nm_a',
        account: 'ak_2',
        kind: 'claim',
        name: 'abcd.chain',
        nameFee: '11',
        salt: 0n,
      },
    ];
    const [claim, bid] = foldNameActions(new Map(), actions);
    expect(claim).to.include({
      kind: 'claim',
      name: 'abcd.chain',
      owner: 'ak_1',
      auctionEnd: 100 + 29760,
      expiresAt: 100 + 29760 + 180000,
    });
    expect(bid).to.include({
      kind: 'bid',
      owner: 'ak_2',
      auctionEnd: 200 + 29760,
      expiresAt: 200 + 29760 + 180000,
      nameFee: '11',
    });
  });

  it('follows Ceres: a claim without preclaim starts the auction, a bid at its last height extends it by 240', () => {
    const claim = { protocol: 6, nameHash: 'nm_c', kind: 'claim' as const, name: 'ceresname.chain', salt: 0n };
    const [start, late] = foldNameActions(new Map(), [
      { ...act(100), ...claim, account: 'ak_1', nameFee: '10' },
      { ...act(580), ...claim, account: 'ak_2', nameFee: '11' },
    ]);
    expect(start).to.include({ kind: 'claim', owner: 'ak_1', auctionEnd: 580, expiresAt: 580 + 180000 });
    expect(late).to.include({ kind: 'bid', owner: 'ak_2', auctionEnd: 820, expiresAt: 820 + 180000 });
  });

  it('claims long names at once and updates, transfers and revokes them from the prior state', () => {
    const prior = new Map<string, NameState>([
      [
        'nm_b',
        {
          name: 'averyveryverylongname.chain',
          kind: 'claim',
          owner: 'ak_1',
          expiresAt: 5000,
          auctionEnd: null,
          nameFee: '1',
          pointers: [],
        },
      ],
    ]);
    const actions: NameAction[] = [
      {
        ...act(300),
        protocol: 5,
        nameHash: 'nm_b',
        account: 'ak_1',
        kind: 'update',
        nameTtl: 1000,
        pointers: [pointer('account_pubkey', 'ak_9')],
      },
      { ...act(300, 1), protocol: 5, nameHash: 'nm_b', account: 'ak_1', kind: 'transfer', recipient: 'ak_3' },
      { ...act(400), protocol: 5, nameHash: 'nm_b', account: 'ak_3', kind: 'revoke' },
    ];
    const [update, transfer, revoke] = foldNameActions(prior, actions);
    expect(update).to.deep.include({
      name: 'averyveryverylongname.chain',
      owner: 'ak_1',
      expiresAt: 1300,
      pointers: [pointer('account_pubkey', 'ak_9')],
    });
    expect(transfer).to.deep.include({
      owner: 'ak_3',
      expiresAt: 1300,
      pointers: [pointer('account_pubkey', 'ak_9')],
    });
    expect(revoke).to.deep.include({ kind: 'revoke', owner: 'ak_3', expiresAt: 400, pointers: [] });
    expect(prior.get('nm_b')!.owner).to.equal('ak_1');
    const [fresh] = foldNameActions(new Map(), [
      {
        ...act(10),
        protocol: 3,
        nameHash: 'nm_c',
        account: 'ak_1',
        kind: 'claim',
        name: 'abc.test',
        nameFee: null,
        salt: 1n,
      },
    ]);
    expect(fresh).to.include({ auctionEnd: null, expiresAt: 50010 });
  });

  it("counts every relative height from the micro block's on a hyperchain; an auction runs through its end generation", () => {
    // a hyperchain's micro blocks after key block h carry height h + 1, from which the node counts (aetx_env:height)
    const claim = { protocol: 6, kind: 'claim' as const, salt: 0n, nameFee: '10' };
    const ceres = { ...claim, nameHash: 'nm_c', name: 'ceresname.chain' };
    const long = { ...claim, nameHash: 'nm_l', name: 'averyveryverylongname.chain' };
    const [start, claimed, update, lastBid] = foldNameActions(new Map(), [
      { ...act(100, 0, 101), ...ceres, account: 'ak_1' },
      { ...act(100, 1, 101), ...long, account: 'ak_1' },
      {
        ...act(200, 0, 201),
        protocol: 6,
        nameHash: 'nm_l',
        account: 'ak_1',
        kind: 'update',
        nameTtl: 1000,
        pointers: [],
      },
      // the auction ends at 581, pruned by key block 582: generation 581, whose micro blocks are at 582, still bids
      { ...act(581, 0, 582), ...ceres, account: 'ak_2', nameFee: '11' },
    ]);
    expect(start).to.include({ kind: 'claim', auctionEnd: 101 + 480, expiresAt: 581 + 180000 });
    expect(claimed).to.include({ kind: 'claim', auctionEnd: null, expiresAt: 101 + 180000 });
    expect(update).to.include({ kind: 'update', expiresAt: 201 + 1000 });
    expect(lastBid).to.include({ kind: 'bid', owner: 'ak_2', auctionEnd: 582 + 240, expiresAt: 822 + 180000 });
  });

  it('treats a claim after an auction ended as a new claim', () => {
    const prior = new Map<string, NameState>([
      [
        'nm_a',
        { name: 'short.chain', kind: 'bid', owner: 'ak_2', expiresAt: 9, auctionEnd: 50, nameFee: '11', pointers: [] },
      ],
    ]);
    const [claim] = foldNameActions(prior, [
      {
        ...act(60),
        protocol: 5,
        nameHash: 'nm_a',
        account: 'ak_4',
        kind: 'claim',
        name: 'short.chain',
        nameFee: '12',
        salt: 0n,
      },
    ]);
    expect(claim).to.include({ kind: 'claim', owner: 'ak_4' });
  });
});

describe('foldOracleActions(prior, actions)', () => {
  it('sets expiry from a delta or absolute register TTL and adds extensions to the current expiry', () => {
    const actions: OracleAction[] = [
      register(act(10), 'ok_1', { type: 'delta', value: 100 }),
      { ...act(20), oracleId: 'ok_1', kind: 'extend', ttl: { type: 'delta', value: 50 } },
      register(act(20, 1), 'ok_2', { type: 'block', value: 999 }),
      { ...act(30), oracleId: 'ok_3', kind: 'extend', ttl: { type: 'delta', value: 5 } },
    ];
    const rows = foldOracleActions(new Map([['ok_3', { expiresAt: 700 }]]), actions);
    expect(rows.map((r) => r.expiresAt)).to.deep.equal([110, 160, 999, 705]);
    expect(rows[1]).to.include({ kind: 'extend', queryFee: null });
  });
});

describe('foldOracleActions(prior, actions) on a hyperchain', () => {
  it("counts a register's delta, and an extension of an oracle registered before the stored heights, from the micro block", () => {
    const rows = foldOracleActions(new Map(), [
      register(act(10, 0, 11), 'ok_1', { type: 'delta', value: 100 }),
      { ...act(20, 0, 21), oracleId: 'ok_1', kind: 'extend', ttl: { type: 'delta', value: 50 } },
      { ...act(30, 0, 31), oracleId: 'ok_9', kind: 'extend', ttl: { type: 'delta', value: 5 } },
    ]);
    expect(rows.map((r) => [r.height, r.expiresAt])).to.deep.equal([
      [10, 111],
      [20, 161],
      [30, 36],
    ]);
  });
});

describe('resolveNameQueries(prior, events, queries)', () => {
  const sender = MemoryAccount.generate().address;
  const [first, second] = [MemoryAccount.generate().address, MemoryAccount.generate().address];
  const oracle = (ak: string): `ok_${string}` => `ok_${ak.slice(3)}`;
  const nameHash = produceNameId('oracles.chain');
  const query = (height: number, txIndex: number, nonce: number): NameOracleQuery => ({
    ...at(height, txIndex),
    nameHash,
    senderId: sender,
    senderNonce: String(nonce),
    query: 'q',
    fee: '1',
    expiresAt: height + 10,
    responseTtl: null,
    txType: 'OracleQueryTx',
    queryField: 'query_id',
  });
  const pointing = (id: string): NameState => ({
    name: 'oracles.chain',
    kind: 'update',
    owner: sender,
    expiresAt: 9000,
    auctionEnd: null,
    nameFee: null,
    pointers: [{ key: 'oracle_pubkey', id }],
  });

  it("sends each query to the oracle the name pointed at just before it, with the sdk's query id", () => {
    const prior = new Map([[nameHash, pointing(first)]]);
    const events = foldNameActions(prior, [
      {
        ...act(20, 1),
        protocol: 5,
        nameHash,
        account: sender,
        kind: 'update',
        nameTtl: 100,
        pointers: [pointer('oracle_pubkey', oracle(second))],
      },
    ]);
    const { queries: rows, accountTxs } = resolveNameQueries(prior, events, [
      query(20, 0, 7),
      query(20, 2, 8),
      query(21, 0, 9),
    ]);
    expect(rows.map((r) => r.oracleId)).to.deep.equal([oracle(first), oracle(second), oracle(second)]);
    expect(rows.map((r) => r.queryId)).to.deep.equal([
      oracleQueryId(sender, 7, oracle(first)),
      oracleQueryId(sender, 8, oracle(second)),
      oracleQueryId(sender, 9, oracle(second)),
    ]);
    expect(rows[0])
      .to.include({ height: 20, txIndex: 0, senderId: sender, senderNonce: '7', query: 'q' })
      .and.not.have.any.keys('nameHash', 'txType', 'queryField');
    expect(accountTxs.map((r) => [r.account, r.txIndex, r.txType, r.fields])).to.deep.equal(
      rows.map((r) => [r.queryId, r.txIndex, 'OracleQueryTx', ['query_id']]),
    );
  });

  it('resolves nothing for a name without an oracle_pubkey pointer, or one revoked before the query', () => {
    const prior = new Map([[nameHash, { ...pointing(first), pointers: [{ key: 'account_pubkey', id: first }] }]]);
    expect(resolveNameQueries(prior, [], [query(30, 0, 1)])).to.deep.equal({ queries: [], accountTxs: [] });
    const revoked = foldNameActions(new Map([[nameHash, pointing(first)]]), [
      { ...act(30), protocol: 5, nameHash, account: sender, kind: 'revoke' },
    ]);
    expect(resolveNameQueries(new Map([[nameHash, pointing(first)]]), revoked, [query(30, 1, 2)])).to.deep.equal({
      queries: [],
      accountTxs: [],
    });
    expect(resolveNameQueries(new Map(), [], [query(30, 0, 1)])).to.deep.equal({ queries: [], accountTxs: [] });
  });
});

describe('resolveNameReferences(prior, events, refs)', () => {
  const owner = MemoryAccount.generate().address;
  const [first, second] = [MemoryAccount.generate().address, MemoryAccount.generate().address];
  const nameHash = produceNameId('wallet.chain');
  const ref = (
    height: number,
    txIndex: number,
    field: string,
    key: string,
    prefix: 'ak' | 'ok' | 'ct',
  ): NameReferenceRow => ({
    ...at(height, txIndex),
    nameHash,
    field,
    key,
    prefix,
    pointeeOnly: true,
    txType: 'SpendTx',
  });
  const pointers = (entries: [string, string][]): NameState => ({
    name: 'wallet.chain',
    kind: 'update',
    owner,
    expiresAt: 9000,
    auctionEnd: null,
    nameFee: null,
    pointers: entries.map(([key, id]) => ({ key, id })),
  });

  it('lists each tx under what the name pointed at just before it, in the prefix the field expects', () => {
    const prior = new Map([
      [
        nameHash,
        pointers([
          ['account_pubkey', first],
          ['contract_pubkey', `ct_${first.slice(3)}`],
        ]),
      ],
    ]);
    const events = foldNameActions(prior, [
      {
        ...act(50, 1),
        protocol: 5,
        nameHash,
        account: owner,
        kind: 'update',
        nameTtl: 100,
        pointers: [pointer('account_pubkey', second)],
      },
    ]);
    const rows = resolveNameReferences(prior, events, [
      ref(50, 0, 'recipient_id', 'account_pubkey', 'ak'),
      ref(50, 2, 'recipient_id', 'account_pubkey', 'ak'),
      ref(50, 0, 'tx.contract_id', 'contract_pubkey', 'ct'),
      ref(50, 2, 'oracle_id', 'oracle_pubkey', 'ok'),
    ]);
    expect(rows.map((r) => [r.txHash, r.account, r.fields])).to.deep.equal([
      ['th_50_0', first, ['recipient_id']],
      ['th_50_2', second, ['recipient_id']],
      ['th_50_0', `ct_${first.slice(3)}`, ['tx.contract_id']],
    ]);
  });

  it('merges two references of one tx to the same account into one row', () => {
    const prior = new Map([
      [
        nameHash,
        pointers([
          ['account_pubkey', first],
          ['oracle_pubkey', first],
        ]),
      ],
    ]);
    const rows = resolveNameReferences(
      prior,
      [],
      [ref(60, 0, 'recipient_id', 'account_pubkey', 'ak'), ref(60, 0, 'tx.recipient_id', 'account_pubkey', 'ak')],
    );
    expect(rows).to.deep.equal([
      { ...at(60, 0), account: first, txType: 'SpendTx', fields: ['recipient_id', 'tx.recipient_id'] },
    ]);
  });
});

describe('foldChannelEvents(prior, events)', () => {
  const st = (round: number): string => encode('st', Buffer.alloc(32, round));
  const empty = encode('tx', Buffer.alloc(0));
  const tx = (height: number, fields: ChannelTx['tx']): ChannelTx => ({ tx: fields, height });
  const create = tx(1, { type: 'ChannelCreateTx', state_hash: st(1) });
  const forced = (round: number): ChannelTx =>
    tx(1 + round, { type: 'ChannelForceProgressTx', payload: empty, round, state_hash: st(round) });
  const deposit = (round: number): ChannelTx =>
    tx(1 + round, { type: 'ChannelDepositTx', round, state_hash: st(round) });
  const events = (channelId: string, txs: ChannelTx[]) => txs.map((update) => ({ channelId, update }));
  const states = (prior: Parameters<typeof foldChannelEvents>[0], evs: ReturnType<typeof events>) =>
    foldChannelEvents(prior, evs).map((e) => e.state);

  it('gives each transaction the state after it, channel by channel, as the fold of all its transactions', () => {
    const a = [create, forced(2), forced(3)];
    const b = [create, deposit(2)];
    const interleaved = [...events('ch_a', a.slice(0, 2)), ...events('ch_b', b), ...events('ch_a', a.slice(2))];
    expect(foldChannelEvents(new Map(), interleaved).map((e) => [e.channelId, e.state])).to.deep.equal([
      ['ch_a', channelState(a.slice(0, 1))],
      ['ch_a', channelState(a.slice(0, 2))],
      ['ch_b', channelState(b.slice(0, 1))],
      ['ch_b', channelState(b)],
      ['ch_a', channelState(a)],
    ]);
  });

  it('continues from the stored state before the batch (the first forced round of a chain spanning two batches)', () => {
    const before = channelState([create, forced(2)]);
    expect(states(new Map([['ch_a', { state: before, terms: undefined }]]), events('ch_a', [forced(3)]))).to.deep.equal(
      [channelState([create, forced(2), forced(3)])],
    );
    expect(before.soloRound).to.equal(2n);
  });

  it("reads a force progress's off-chain trees for the parties its creation named, in the batch or stored before", () => {
    const [i, r] = [encode('ak', Buffer.alloc(32, 1)), encode('ak', Buffer.alloc(32, 2))];
    const terms = { initiator: i, responder: r, reserve: 2n };
    const opened = tx(1, { ...create.tx, initiator_id: i, responder_id: r, channel_reserve: 2, initiator_amount: 9 });
    const trees = treesOfBalances([
      [i, 4n],
      [r, 5n],
    ]);
    const update = { op: 'OffChainCallContract', caller_id: r, amount: 1 };
    const progressed = tx(3, { ...forced(2).tx, offchain_trees: trees, update });
    const amounts = (s: ChannelState | null) => s && [s.initiatorAmount, s.responderAmount];
    expect(states(new Map(), events('ch_a', [opened, progressed])).map(amounts)).to.deep.equal([
      [9n, 0n],
      [4n, 4n],
    ]);
    const before = channelState([opened]);
    expect(
      states(new Map([['ch_a', { state: before, terms }]]), events('ch_a', [progressed])).map(amounts),
    ).to.deep.equal([[4n, 4n]]);
  });

  it('leaves the state unknown after a stored state not derived yet (the channels area pending)', () => {
    const pending = new Map([['ch_a', { state: null, terms: undefined }]]);
    expect(states(pending, events('ch_a', [deposit(2), forced(3)]))).to.deep.equal([null, null]);
  });
});
