/**
 * @module A range's balance changes as rows (derived/balance-changes.ts): chain order, the balance after each change,
 * and the reconciliation with the node's balance at the range's end.
 */
import { expect } from 'chai';
import { LOCKED_COINS_ACCOUNT } from '../../../src/chain/derived-ids.ts';
import { encode } from '../../../src/chain/encoding.ts';
import { AFTER_BLOCK } from '../../../src/db/queries/balance-changes.ts';
import {
  balanceChangeRows,
  derivedDeltas,
  inChainOrder,
  transferredAccounts,
  untoldAccounts,
  type PlacedDelta,
} from '../../../src/indexer/derived/balance-changes.ts';

const alice = encode('ak', Buffer.alloc(32, 1));
const bob = encode('ak', Buffer.alloc(32, 2));
const at = (height: number, microIndex: number, txIndex: number) => ({ height, microIndex, txIndex });

describe('derivedDeltas (derived/balance-changes.ts)', () => {
  it("puts a block's key-level transfers first, then each transaction's own changes, its internal calls and transfers (their cause the transaction at their place: no hash kept)", () => {
    const spend = { type: 'SpendTx', sender_id: alice, recipient_id: bob, amount: 5, fee: 1 };
    const made = { type: 'MadeUpTx', owner_id: alice, fee: 1 };
    const { deltas, untold } = derivedDeltas(
      [
        { row: { ...at(2, 0, 0), hash: 'th_a' }, tx: spend, facts: {} },
        { row: { ...at(2, 0, 1), hash: 'th_b' }, tx: made, facts: {} },
      ],
      [
        { ...at(2, -1, -1), txHash: null, deltas: [{ account: bob, amount: 100n, kind: 'reward_block' }] },
        { ...at(2, 0, 0), txHash: null, deltas: [{ account: alice, amount: 2n, kind: 'Chain.spend' }] },
        { ...at(3, -1, -1), txHash: null, deltas: [{ account: alice, amount: 100n, kind: 'reward_block' }] },
      ],
    );
    expect(
      deltas.map(
        (d) =>
          `${d.height}:${d.microIndex}:${d.txIndex} ${d.kind} ${d.account === alice ? 'a' : 'b'} ${d.amount} ${d.txHash}`,
      ),
    ).to.deep.equal([
      '2:-1:-1 reward_block b 100 null',
      '2:0:0 SpendTx a -6 null',
      '2:0:0 SpendTx b 5 null',
      '2:0:0 Chain.spend a 2 null',
      '3:-1:-1 reward_block a 100 null',
    ]);
    expect(untold).to.deep.equal([
      { ...at(2, 0, 1), txHash: 'th_b', reason: 'the balance changes of a MadeUpTx are not known' },
    ]);
  });
});

describe('inChainOrder (derived/balance-changes.ts)', () => {
  const change = (place: ReturnType<typeof at>, kind: string): PlacedDelta => ({
    ...place,
    account: alice,
    amount: 1n,
    kind,
    txHash: null,
  });
  it('places each added change after those at or before its place, the added ones in their order at a shared place', () => {
    const deltas = [
      change(at(1, 0, 0), 'd1'),
      change(at(2, 0, 0), 'd2'),
      change(at(2, 0, 0), 'd3'),
      change(at(5, 0, 0), 'd4'),
    ];
    const added = [
      change(at(2, 0, 0), 'u1'),
      change(at(0, -1, -1), 'u2'),
      change(at(9, 0, AFTER_BLOCK), 'u3'),
      change(at(2, 0, 0), 'u4'),
      change(at(3, 1, 0), 'u5'),
    ];
    expect(inChainOrder(deltas, added).map((d) => d.kind)).to.deep.equal([
      'u2',
      'd1',
      'd2',
      'd3',
      'u1',
      'u4',
      'u5',
      'd4',
      'u3',
    ]);
    expect(inChainOrder(deltas, []).map((d) => d.kind)).to.deep.equal(['d1', 'd2', 'd3', 'd4']);
  });
});

describe('balanceChangeRows (derived/balance-changes.ts)', () => {
  const delta = (place: ReturnType<typeof at>, account: string, amount: bigint, kind: string): PlacedDelta => ({
    ...place,
    account,
    amount,
    kind,
    txHash: kind === 'reward_block' ? null : 'th_a',
  });

  it('makes the rows of a stretch holding more changes than a call takes arguments (10 000 heights of a 1 % chain)', () => {
    const n = 150_000;
    const deltas = Array.from({ length: n }, (_, i) =>
      delta(at(1 + Math.floor(i / 30), 0, i % 30), alice, 1n, 'SpendTx'),
    );
    const { rows } = balanceChangeRows(deltas, {
      before: new Map(),
      atEnd: new Map([[alice, BigInt(n)]]),
      end: at(10_001, -1, AFTER_BLOCK),
    });
    expect(rows.length).to.equal(n);
    expect(rows.at(-1)!.balance).to.equal(BigInt(n));
  });

  it("sums an account's changes of one cause at one place, each row with the balance after it", () => {
    const { rows, differences } = balanceChangeRows(
      [
        delta(at(2, 0, 0), alice, -6n, 'SpendTx'),
        delta(at(2, 0, 0), alice, 1n, 'SpendTx'),
        delta(at(2, 0, 0), alice, 2n, 'Chain.spend'),
        delta(at(3, -1, -1), bob, 100n, 'reward_block'),
      ],
      {
        before: new Map([[alice, 10n]]),
        atEnd: new Map([
          [alice, 7n],
          [bob, 100n],
        ]),
        end: at(3, -1, AFTER_BLOCK),
      },
    );
    expect(differences).to.deep.equal([]);
    expect(rows.map((r) => [r.accountId === alice ? 'a' : 'b', r.kind, r.seq, r.delta, r.balance])).to.deep.equal([
      ['a', 'SpendTx', 0, -5n, 5n],
      ['a', 'Chain.spend', 1, 2n, 7n],
      ['b', 'reward_block', 0, 100n, 100n],
    ]);
  });

  it("makes the node's balance at the range's end an 'unexplained' change where the derived one differs", () => {
    const { rows, differences } = balanceChangeRows([delta(at(2, 0, 0), alice, -6n, 'SpendTx')], {
      before: new Map([[alice, 10n]]),
      atEnd: new Map([
        [alice, 1n],
        [bob, 50n],
      ]),
      end: at(2, 0, AFTER_BLOCK),
    });
    expect(differences).to.deep.equal([
      { accountId: alice, height: 2, derived: 4n, node: 1n },
      { accountId: bob, height: 2, derived: 0n, node: 50n },
    ]);
    expect(rows.slice(1).map((r) => [r.kind, r.txIndex, r.delta, r.balance])).to.deep.equal([
      ['unexplained', AFTER_BLOCK, -3n, 1n],
      ['unexplained', AFTER_BLOCK, 50n, 50n],
    ]);
  });

  it("places an account's difference after the first untold transaction naming it, where it arose", () => {
    const { rows, differences } = balanceChangeRows(
      [delta(at(2, 0, 0), alice, -6n, 'ContractCallTx'), delta(at(3, 0, 0), alice, -1n, 'SpendTx')],
      {
        before: new Map([[alice, 10n]]),
        atEnd: new Map([[alice, 103n]]),
        end: at(3, 0, AFTER_BLOCK),
        untold: [
          { ...at(1, 0, 0), accounts: [bob] },
          { ...at(2, 0, 0), accounts: [bob, alice] },
        ],
      },
    );
    expect(differences).to.deep.equal([{ accountId: alice, height: 3, derived: 3n, node: 103n }]);
    expect(rows.map((r) => [r.height, r.txIndex, r.seq, r.kind, r.delta, r.balance])).to.deep.equal([
      [2, 0, 0, 'ContractCallTx', -6n, 4n],
      [2, 0, 1, 'unexplained', 100n, 104n],
      [3, 0, 0, 'SpendTx', -1n, 103n],
    ]);
  });

  it("stores a located difference's parts where the node's state showed them arising, not at the first untold place", () => {
    const untold = [{ ...at(2, 0, 0), accounts: [alice] }];
    const rec = {
      before: new Map([[alice, 10n]]),
      atEnd: new Map([[alice, 15n]]),
      end: at(4, 0, AFTER_BLOCK),
      untold,
    };
    const deltas = [delta(at(2, 0, 0), alice, -1n, 'ContractCallTx'), delta(at(3, 0, 0), alice, 1n, 'SpendTx')];
    const located = new Map([
      [
        alice,
        [
          { ...at(3, 0, 0), amount: 2n },
          { ...at(4, 0, AFTER_BLOCK), amount: 3n },
        ],
      ],
    ]);
    const { rows, differences } = balanceChangeRows(deltas, { ...rec, located });
    // the difference is still reported: the rules missed it
    expect(differences).to.deep.equal([{ accountId: alice, height: 4, derived: 10n, node: 15n }]);
    expect(rows.map((r) => [r.height, r.txIndex, r.kind, r.delta, r.balance])).to.deep.equal([
      [2, 0, 'ContractCallTx', -1n, 9n],
      [3, 0, 'SpendTx', 1n, 10n],
      [3, 0, 'unexplained', 2n, 12n],
      [4, AFTER_BLOCK, 'unexplained', 3n, 15n],
    ]);
    // parts that do not add up to the difference at the end (a node read since) are not trusted: placed as before
    const stale = new Map([[alice, [{ ...at(3, 0, 0), amount: 4n }]]]);
    expect(
      balanceChangeRows(deltas, { ...rec, located: stale }).rows.map((r) => [r.height, r.kind, r.delta]),
    ).to.deep.equal([
      [2, 'ContractCallTx', -1n],
      [2, 'unexplained', 5n],
      [3, 'SpendTx', 1n],
    ]);
  });

  it("without genesis accounts known, a first-seen account's difference is its genesis balance, never below 0", () => {
    const { rows, differences } = balanceChangeRows(
      [delta(at(5, 0, 0), alice, -6n, 'SpendTx'), delta(at(5, 0, 0), bob, 6n, 'SpendTx')],
      {
        before: new Map(),
        atEnd: new Map([
          [alice, 94n],
          [bob, 1n],
        ]),
        end: at(5, 0, AFTER_BLOCK),
        inferOpening: true,
      },
    );
    expect(differences).to.deep.equal([{ accountId: bob, height: 5, derived: 6n, node: 1n }]);
    expect(rows.map((r) => [r.accountId === alice ? 'a' : 'b', r.height, r.kind, r.delta, r.balance])).to.deep.equal([
      ['a', 0, 'accounts_roma', 100n, 100n],
      ['a', 5, 'SpendTx', -6n, 94n],
      ['b', 5, 'SpendTx', 6n, 6n],
      ['b', 5, 'unexplained', -5n, 1n],
    ]);
  });

  it('without genesis accounts known, an opening the node told is the genesis balance and the rest a difference where it arose', () => {
    // alice held 100 at genesis; an untold call at 7:0:0 paid her 30 the rules cannot see
    const deltas = [delta(at(5, 0, 0), alice, -6n, 'SpendTx'), delta(at(5, 0, 0), bob, 6n, 'SpendTx')];
    const rec = {
      before: new Map<string, bigint>(),
      atEnd: new Map([[alice, 124n]]),
      end: at(9, 0, AFTER_BLOCK),
      inferOpening: true,
    };
    const inferred = balanceChangeRows(deltas, rec);
    // none told: the whole difference is taken for genesis money, and the account is listed to be asked
    expect(inferred.inferred).to.deep.equal([alice]);
    expect(inferred.rows.find((r) => r.kind === 'accounts_roma')?.delta).to.equal(130n);
    const told = balanceChangeRows(deltas, {
      ...rec,
      openings: new Map([[alice, 100n]]),
      located: new Map([[alice, [{ ...at(7, 0, 0), amount: 30n }]]]),
    });
    expect(told.inferred).to.deep.equal([]);
    expect(told.differences).to.deep.equal([{ accountId: alice, height: 9, derived: 94n, node: 124n }]);
    expect(
      told.rows.filter((r) => r.accountId === alice).map((r) => [r.height, r.kind, r.delta, r.balance]),
    ).to.deep.equal([
      [0, 'accounts_roma', 100n, 100n],
      [5, 'SpendTx', -6n, 94n],
      [7, 'unexplained', 30n, 124n],
    ]);
  });
});

describe('transferredAccounts (derived/balance-changes.ts)', () => {
  const contract = encode('ak', Buffer.alloc(32, 3));
  const event = (height: number, kind: string, accountId: string | null) => ({ height, kind, accountId });

  it("gives each account a transfer moved with its highest height, a Lima contract's amount marking it a contract", () => {
    const touched = transferredAccounts([
      event(3, 'reward_block', bob),
      event(9, 'reward_dev', bob),
      event(5, 'contracts_lima', contract),
      event(7, 'reward_oracle', contract),
      event(4, 'refund_name', alice),
    ]);
    expect(Object.fromEntries(touched)).to.deep.equal({
      [bob]: { height: 9, contract: false },
      [contract]: { height: 7, contract: true },
      [alice]: { height: 4, contract: false },
    });
  });

  it("touches the locked-coins account where a name's fee or bid moved to it, and no internal call's row or other id", () => {
    const touched = transferredAccounts([
      event(2, 'fee_lock_name', alice),
      event(6, 'fee_spend_name', alice),
      // an internal call's row: its payer is not told by this row
      event(8, 'Chain.spend', null),
      event(8, 'reward_oracle', encode('ok', Buffer.alloc(32, 4))),
    ]);
    expect(Object.fromEntries(touched)).to.deep.equal({
      [alice]: { height: 6, contract: false },
      [LOCKED_COINS_ACCOUNT]: { height: 6, contract: false },
    });
  });
});

describe('untoldAccounts (derived/balance-changes.ts)', () => {
  const untold = (height: number, accounts: string[]) => ({ height, accounts });

  it('gives each account an untold transaction names with its highest height, and the locked-coins account, which none names, with the last', () => {
    const touched = untoldAccounts([untold(3, [alice, bob]), untold(7, [alice]), untold(5, [])]);
    expect(Object.fromEntries(touched)).to.deep.equal({ [alice]: 7, [bob]: 3, [LOCKED_COINS_ACCOUNT]: 7 });
  });

  it('reads no account, the locked-coins one neither, where every transaction is told', () => {
    expect(untoldAccounts([]).size).to.equal(0);
  });
});
