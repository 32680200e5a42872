/** @module A batch's transactions per type, as the writer adds them to tx_type_totals (migration 1154). */
import { expect } from 'chai';
import { txTypeCode } from '../../../src/chain/id-key.ts';
import { txTypeTotals } from '../../../src/indexer/rows/tx-type-totals.ts';

const tx = (txType: string, size: number) => ({ txType, stored: { size } }) as Parameters<typeof txTypeTotals>[0][0];

describe('txTypeTotals', () => {
  it('counts the transactions of each type and sums their sizes, one total a type, in the order met', () => {
    const batch = [tx('SpendTx', 120), tx('ContractCallTx', 300), tx('SpendTx', 130), tx('SpendTx', 1)];
    expect(txTypeTotals(batch, txTypeCode)).to.deep.equal([
      { code: txTypeCode('SpendTx'), n: 3, size: 251 },
      { code: txTypeCode('ContractCallTx'), n: 1, size: 300 },
    ]);
  });

  it('groups by the code the writer gives a type: a type the code does not know, by its learned code', () => {
    const learned = new Map([['FutureTx', 1000]]);
    const code = (type: string): number => learned.get(type) ?? txTypeCode(type);
    const totals = txTypeTotals([tx('FutureTx', 10), tx('FutureTx', 20), tx('SpendTx', 5)], code);
    expect(totals).to.deep.equal([
      { code: 1000, n: 2, size: 30 },
      { code: txTypeCode('SpendTx'), n: 1, size: 5 },
    ]);
  });

  it('gives no total for a batch without transactions', () => {
    expect(txTypeTotals([], txTypeCode)).to.deep.equal([]);
  });
});
