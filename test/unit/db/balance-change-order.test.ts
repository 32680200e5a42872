import { expect } from 'chai';
import { byAccount, type BalanceChangeRow } from '../../../src/db/writes/balance-changes.ts';

const row = (accountId: string, height: number, seq = 0): BalanceChangeRow => ({
  accountId,
  height,
  microIndex: 0,
  txIndex: 0,
  seq,
  kind: 'SpendTx',
  txHash: null,
  delta: 1n,
  balance: BigInt(height),
});

describe('db/writes/balance-changes byAccount', () => {
  it("groups the rows by account, each account's in the order given, the accounts in their first row's order", () => {
    const rows = [row('ak_b', 1), row('ak_a', 1), row('ak_b', 2), row('ak_c', 2), row('ak_a', 3), row('ak_b', 3, 1)];
    expect(byAccount(rows)).to.deep.equal([
      row('ak_b', 1),
      row('ak_b', 2),
      row('ak_b', 3, 1),
      row('ak_a', 1),
      row('ak_a', 3),
      row('ak_c', 2),
    ]);
  });

  it('keeps every row of a stretch, more than a call takes arguments', () => {
    const rows = Array.from({ length: 300_000 }, (_, i) => row(`ak_${i % 7}`, i));
    const grouped = byAccount(rows);
    expect(grouped).to.have.length(rows.length);
    expect(grouped.slice(0, 3).map((r) => r.height)).to.deep.equal([0, 7, 14]);
  });
});
