import { expect } from 'chai';
import { AFTER_BLOCK } from '../../../src/db/queries/balance-changes.ts';
import { balanceAfter, differenceSteps, stepPlace } from '../../../src/indexer/derived/difference-steps.ts';

const at = (height: number, microIndex: number, txIndex: number) => ({ height, microIndex, txIndex });

describe('differenceSteps (derived/difference-steps.ts)', () => {
  /** a node whose gap (node − derived) after block i is `gaps[i]`, counting the reads */
  const node = (gaps: readonly bigint[]) => {
    const asked: number[] = [];
    return { asked, gap: (i: number) => (asked.push(i), Promise.resolve(gaps[i])) };
  };

  it('finds each block within which the difference grew, in chain order, reading about log2(n) blocks a step', async () => {
    const gaps = Array.from({ length: 1000 }, (_, i) => (i >= 137 ? 5n : 0n) + (i >= 702 ? -2n : 0n));
    const n = node(gaps);
    expect(await differenceSteps(gaps.length, gaps.at(-1)!, n.gap)).to.deep.equal([
      { index: 137, amount: 5n },
      { index: 702, amount: -2n },
    ]);
    expect(n.asked.length).to.be.at.most(2 * Math.ceil(Math.log2(1000)));
    expect(new Set(n.asked).size).to.equal(n.asked.length);
  });

  it('finds a difference arising in the first block (the state before the range is the derived one)', async () => {
    const gaps = [7n, 7n, 7n, 7n];
    expect(await differenceSteps(4, 7n, node(gaps).gap)).to.deep.equal([{ index: 0, amount: 7n }]);
    expect(await differenceSteps(1, 7n, node([7n]).gap)).to.deep.equal([{ index: 0, amount: 7n }]);
  });

  it('asks nothing when there is no difference, and gives up when a read cannot tell or the reads run out', async () => {
    const quiet = node([0n, 0n, 0n]);
    expect(await differenceSteps(3, 0n, quiet.gap)).to.deep.equal([]);
    expect(quiet.asked).to.deep.equal([]);
    expect(await differenceSteps(8, 1n, () => Promise.resolve(undefined))).to.equal(undefined);
    const every = Array.from({ length: 64 }, (_, i) => BigInt(i + 1));
    expect(await differenceSteps(64, 64n, node(every).gap, 10)).to.equal(undefined);
    expect(await differenceSteps(64, 64n, node(every).gap)).to.have.length(64);
  });
});

describe('balanceAfter (derived/difference-steps.ts)', () => {
  it("gives the derived balance after a block: every change at or before the block's end counted", () => {
    const after = balanceAfter(10n, [
      { ...at(2, -1, -1), amount: 100n },
      { ...at(2, 0, 3), amount: -5n },
      { ...at(2, 1, 0), amount: -1n },
      { ...at(4, 0, 0), amount: 7n },
    ]);
    expect(after({ height: 1, microIndex: 0 })).to.equal(10n);
    expect(after({ height: 2, microIndex: -1 })).to.equal(110n);
    expect(after({ height: 2, microIndex: 0 })).to.equal(105n);
    expect(after({ height: 3, microIndex: -1 })).to.equal(104n);
    expect(after({ height: 4, microIndex: 0 })).to.equal(111n);
    expect(balanceAfter(3n, [])({ height: 9, microIndex: 2 })).to.equal(3n);
  });
});

describe('stepPlace (derived/difference-steps.ts)', () => {
  it('places a step after the first untold transaction of its block naming the account, else after the block', () => {
    const untold = [
      { ...at(5, 1, 2), accounts: ['ak_b'] },
      { ...at(5, 1, 4), accounts: ['ak_a', 'ak_b'] },
      { ...at(6, 0, 0), accounts: ['ak_a'] },
    ];
    expect(stepPlace({ height: 5, microIndex: 1 }, 'ak_a', untold)).to.deep.equal(at(5, 1, 4));
    expect(stepPlace({ height: 5, microIndex: 1 }, 'ak_c', untold)).to.deep.equal(at(5, 1, AFTER_BLOCK));
    expect(stepPlace({ height: 5, microIndex: -1 }, 'ak_a', untold)).to.deep.equal(at(5, -1, AFTER_BLOCK));
  });
});
