/** @module A batch's transactions and bytes per generation, counted in memory for generation_txis. */
import { expect } from 'chai';
import type { GenerationRows } from '../../../src/indexer/rows/rows.ts';
import { generationTotals } from '../../../src/indexer/rows/generation-totals.ts';

/** gen is a generation with only what the counting reads: its micro blocks' counts and its transactions' sizes. */
const gen = (height: number, txCounts: number[], sizes: number[], continuesAt?: number): GenerationRows =>
  ({
    keyBlock: { height },
    continuesAt,
    microBlocks: txCounts.map((txCount) => ({ txCount })),
    transactions: sizes.map((size) => ({ stored: { size } })),
  }) as unknown as GenerationRows;

describe('generationTotals', () => {
  it("sums each generation's micro blocks' transaction counts and its transactions' sizes, in order", () => {
    expect(generationTotals([gen(7, [2, 1], [100, 120, 90]), gen(8, [], []), gen(9, [1], [4000])])).to.deep.equal({
      heights: [7, 8, 9],
      txs: [3, 0, 1],
      sizes: [310, 0, 4000],
    });
  });

  it('leaves to the stored rows a batch continuing a stored generation, or whose heights skip one', () => {
    expect(generationTotals([gen(7, [1], [100], 1), gen(8, [], [])])).to.equal(undefined);
    expect(generationTotals([gen(7, [1], [100]), gen(9, [], [])])).to.equal(undefined);
  });
});
