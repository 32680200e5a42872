/**
 * @module Where a stretch of an area that gathers ends (derived/gathered-stretch.ts, issue 76): at its heights' bound,
 * or sooner where its transactions pass the cap, and never before its first height.
 */
import { expect } from 'chai';
import { stretchEnd } from '../../../src/indexer/derived/gathered-stretch.ts';

const heights = (counts: Record<number, number>) =>
  Object.entries(counts).map(([height, transactions]) => ({ height: Number(height), transactions }));

describe('stretchEnd (gathered-stretch.ts)', () => {
  it('ends at the heights’ bound when the transactions stay within the cap', () => {
    expect(stretchEnd(0, 99, heights({ 3: 10, 50: 20, 99: 70 }), 100)).to.equal(99);
    expect(stretchEnd(0, 99, [], 1)).to.equal(99);
  });

  it('ends before the height that passes the cap, the empty heights before it included', () => {
    expect(stretchEnd(0, 99, heights({ 3: 10, 50: 20, 99: 71 }), 100)).to.equal(98);
    expect(stretchEnd(10, 9_999, heights({ 10: 40, 11: 40, 20: 40, 30: 40 }), 100)).to.equal(19);
  });

  it('takes its first height alone when that one holds more than the cap: a huge generation still progresses', () => {
    expect(stretchEnd(5, 99, heights({ 5: 1_000, 6: 1 }), 100)).to.equal(5);
    // the first height that holds any is past the first: the empty ones before it come along
    expect(stretchEnd(5, 99, heights({ 8: 1_000 }), 100)).to.equal(7);
  });

  it('counts only the heights of the stretch', () => {
    expect(stretchEnd(10, 20, heights({ 5: 1_000, 15: 50, 25: 1_000 }), 100)).to.equal(20);
  });
});
