import { expect } from 'chai';
import { AFTER_BLOCK } from '../../../src/db/queries/balance-changes.ts';
import { balanceAfter, differenceSteps, stepPlace } from '../../../src/indexer/derived/difference-steps.ts';

const at = (height: number, microIndex: number, txIndex: number) => ({ height, microIndex, txIndex });

describe('differenceSteps (derived/difference-steps.ts)', () => {
  /** a node whose gap (node − derived) after block i is `gaps[i]` (undefined: pruned), counting the reads */
  const node = (gaps: readonly (bigint | undefined)[]) => {
    const asked: number[] = [];
    return { asked, gap: (i: number) => (asked.push(i), Promise.resolve(gaps[i])) };
  };

  it('finds each block within which the difference grew, in chain order, reading about log2(n) blocks a step', async () => {
    const gaps = Array.from({ length: 1000 }, (_, i) => (i >= 137 ? 5n : 0n) + (i >= 702 ? -2n : 0n));
    const n = node(gaps);
    expect(await differenceSteps(gaps.length, gaps.at(-1)!, n.gap)).to.deep.equal([
      { from: 136, index: 137, amount: 5n },
      { from: 701, index: 702, amount: -2n },
    ]);
    expect(n.asked.length).to.be.at.most(2 * Math.ceil(Math.log2(1000)));
    expect(new Set(n.asked).size).to.equal(n.asked.length);
  });

  it('finds a difference arising in the first block (the state before the range is the derived one)', async () => {
    expect(await differenceSteps(4, 7n, node([7n, 7n, 7n, 7n]).gap)).to.deep.equal([
      { from: -1, index: 0, amount: 7n },
    ]);
    expect(await differenceSteps(1, 7n, node([7n]).gap)).to.deep.equal([{ from: -1, index: 0, amount: 7n }]);
  });

  it('asks nothing without a difference; what the node cannot tell, or the reads left no bound for, spans the blocks between two reads', async () => {
    const quiet = node([0n, 0n, 0n]);
    expect(await differenceSteps(3, 0n, quiet.gap)).to.deep.equal([]);
    expect(quiet.asked).to.deep.equal([]);
    // a pruned node: one step over the whole range, as before any read
    expect(await differenceSteps(8, 1n, () => Promise.resolve(undefined))).to.deep.equal([
      { from: -1, index: 7, amount: 1n },
    ]);
    // pruned below block 3 only: the step is narrowed down to blocks 0..3, no further
    const pruned = node([undefined, undefined, undefined, 1n, 1n, 1n, 1n, 1n]);
    expect(await differenceSteps(8, 1n, pruned.gap)).to.deep.equal([{ from: -1, index: 3, amount: 1n }]);
    // a step in every block: 63 reads find all 64; 10 reads leave some spanning a few blocks, adding up all the same
    const every = Array.from({ length: 64 }, (_, i) => BigInt(i + 1));
    const all = await differenceSteps(64, 64n, node(every).gap);
    expect(all.map((s) => s.index)).to.deep.equal(every.map((_, i) => i));
    const bounded = node(every);
    const some = await differenceSteps(64, 64n, bounded.gap, { maxReads: 10 });
    expect(bounded.asked.length).to.equal(10);
    expect(some.reduce((sum, s) => sum + s.amount, 0n)).to.equal(64n);
    for (const s of some) expect(s.amount, `${s.from}..${s.index}`).to.equal(BigInt(s.index - s.from));
    expect(some.length).to.be.within(2, 63);
  });

  it('asks before and after the suspected blocks first: a difference that arose in one takes two reads', async () => {
    const gaps = Array.from({ length: 40_000 }, (_, i) => (i >= 23_456 ? 9n : 0n));
    const n = node(gaps);
    expect(await differenceSteps(gaps.length, 9n, n.gap, { suspects: [23_456] })).to.deep.equal([
      { from: 23_455, index: 23_456, amount: 9n },
    ]);
    expect(n.asked).to.deep.equal([23_455, 23_456]);
    // a suspect that explains part of it: the rest bisected in the intervals whose ends still differ
    const parts = Array.from({ length: 1000 }, (_, i) => (i >= 300 ? 4n : 0n) + (i >= 800 ? 1n : 0n));
    const p = node(parts);
    expect(await differenceSteps(parts.length, 5n, p.gap, { suspects: [300] })).to.deep.equal([
      { from: 299, index: 300, amount: 4n },
      { from: 799, index: 800, amount: 1n },
    ]);
    expect(p.asked.slice(0, 2)).to.deep.equal([299, 300]);
    expect(p.asked.length).to.be.at.most(2 + Math.ceil(Math.log2(700)));
    // a wrong suspect costs its two reads, the bisection finds the step; the first block's suspect reads once
    const wrong = node(gaps);
    expect(await differenceSteps(gaps.length, 9n, wrong.gap, { suspects: [10] })).to.deep.equal([
      { from: 23_455, index: 23_456, amount: 9n },
    ]);
    expect(wrong.asked.slice(0, 2)).to.deep.equal([9, 10]);
    const first = node([3n, 3n, 3n, 3n]);
    expect(await differenceSteps(4, 3n, first.gap, { suspects: [0] })).to.deep.equal([
      { from: -1, index: 0, amount: 3n },
    ]);
    expect(first.asked).to.deep.equal([0]);
    // several suspects, asked in one round: each step in one of them found there, nothing bisected
    const many = node(parts);
    expect(await differenceSteps(parts.length, 5n, many.gap, { suspects: [120, 300, 800] })).to.deep.equal([
      { from: 299, index: 300, amount: 4n },
      { from: 799, index: 800, amount: 1n },
    ]);
    expect(many.asked).to.deep.equal([119, 120, 299, 300, 799, 800]);
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
  const blocks = [
    { height: 5, microIndex: -1 },
    { height: 5, microIndex: 0 },
    { height: 5, microIndex: 1 },
    { height: 6, microIndex: -1 },
    { height: 6, microIndex: 0 },
  ];
  const untold = [
    { ...at(5, 1, 2), accounts: ['ak_b'] },
    { ...at(5, 1, 4), accounts: ['ak_a', 'ak_b'] },
    { ...at(6, 0, 0), accounts: ['ak_a'] },
  ];

  it('places a step after the first untold transaction of its blocks naming the account, else after its last block', () => {
    expect(stepPlace(blocks, { from: 1, index: 2 }, 'ak_a', untold)).to.deep.equal(at(5, 1, 4));
    expect(stepPlace(blocks, { from: 1, index: 2 }, 'ak_c', untold)).to.deep.equal(at(5, 1, AFTER_BLOCK));
    expect(stepPlace(blocks, { from: -1, index: 0 }, 'ak_a', untold)).to.deep.equal(at(5, -1, AFTER_BLOCK));
    expect(stepPlace(blocks, { from: 2, index: 4 }, 'ak_a', untold)).to.deep.equal(at(6, 0, 0));
    expect(stepPlace(blocks, { from: -1, index: 4 }, 'ak_a', untold)).to.deep.equal(at(5, 1, 4));
  });
});
