/** @module The bench's bare COPY baseline cuts the chain into the populator's batches (bench/bare-copy.lib.ts). */
import { expect } from 'chai';
import { populatorBatches, referencedFirst } from '../../../bench/bare-copy.lib.ts';

describe('bench bare COPY baseline', () => {
  it('cuts batches as the loader does: at most batchSize generations, closed once they hold batchTransactions', () => {
    // the default devnode chain: a genesis without transactions, then 10 a generation
    const chain = [0, ...Array.from({ length: 2000 }, () => 10)];
    const batches = populatorBatches(chain, 500, 2000);
    expect(batches).to.have.length(10);
    expect(batches[0]).to.deep.equal([0, 200]);
    expect(batches[9]).to.deep.equal([1801, 2000]);
    // few transactions: batchSize generations a batch, the last one shorter
    expect(populatorBatches([0, 1, 0, 0, 1], 2, 100)).to.deep.equal([
      [0, 1],
      [2, 3],
      [4, 4],
    ]);
    // one generation holding more than batchTransactions is a batch of its own
    expect(populatorBatches([0, 5000, 3], 500, 2000)).to.deep.equal([
      [0, 1],
      [2, 2],
    ]);
  });

  it('orders tables after the tables their foreign keys reference', () => {
    const order = referencedFirst(
      ['transactions', 'key_blocks', 'micro_blocks'],
      [
        ['transactions', 'micro_blocks'],
        ['micro_blocks', 'key_blocks'],
      ],
    );
    expect(order).to.deep.equal(['key_blocks', 'micro_blocks', 'transactions']);
  });
});
