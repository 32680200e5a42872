import { expect } from 'chai';
import { storedTxAmounts, storedTxColumns } from '../../../src/chain/stored-tx.ts';
import { WrittenTransactions } from '../../../src/indexer/derived/written-transactions.ts';
import { generateChain } from '../../../src/devnode/index.ts';
import { txJson } from '../../../src/devnode/api/views.ts';
import { parseJson, type JsonObject } from '../../../src/chain/json.ts';

describe('WrittenTransactions (derived/written-transactions.ts)', () => {
  // the node's JSON of a devnode chain's transactions, as the populator reads it
  const { chain } = generateChain({ generations: 20, seed: 'written-transactions' });
  const signed = [...chain.txs.values()].map((r) => parseJson(txJson(r)) as JsonObject).slice(0, 6);
  const written = signed.map((s, i) => ({
    height: 10 + Math.floor(i / 2),
    txHash: String(s.hash),
    tx: s.tx as JsonObject,
  }));

  it("gives a kept transaction's ids and amounts as its stored bytes would, by its hash, and nothing of another", () => {
    const kept = new WrittenTransactions(100);
    kept.keep(written);
    expect(kept.size).to.equal(6);
    signed.forEach((s) =>
      expect(kept.fieldsOf(String(s.hash))).to.deep.equal(storedTxAmounts(storedTxColumns(s).signed)),
    );
    expect(kept.fieldsOf('th_none')).to.equal(undefined);
  });

  it('forgets the heights a stretch derived, and the oldest past its bound', () => {
    const kept = new WrittenTransactions(4);
    kept.keep(written.slice(0, 2));
    kept.keep(written.slice(2));
    // six written, four kept: the first batch's two dropped
    expect(written.map((w) => kept.fieldsOf(w.txHash) !== undefined)).to.deep.equal([
      false,
      false,
      true,
      true,
      true,
      true,
    ]);
    kept.forgetThrough(11);
    expect(written.map((w) => kept.fieldsOf(w.txHash) !== undefined)).to.deep.equal([
      false,
      false,
      false,
      false,
      true,
      true,
    ]);
    expect(kept.size).to.equal(2);
  });
});
