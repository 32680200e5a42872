/**
 * @module A walk from a cursor within a range: the range's bound on the walk's side is folded into the start, the
 * tighter of the two, so that the page's statement has one row comparison on that side (PostgreSQL starts its index
 * scan at one of two, not the tighter).
 */
import { expect } from 'chai';
import { fromCursor } from '../../../src/db/queries/transaction-filter.ts';

const at = (height: number, microIndex = 0, txIndex = 0) => ({ height, microIndex, txIndex });
const scope = { ids: [], from: at(1), to: at(57_000, 2 ** 31 - 1, 2 ** 31 - 1) };

describe('fromCursor', () => {
  it('walking backwards from a cursor inside the range: starts at the cursor and keeps only the lower bound', () => {
    expect(fromCursor(scope, 'backward', at(4))).to.deep.equal({ f: { ...scope, to: undefined }, start: at(4) });
  });

  it('walking backwards from a cursor past the range: starts at the range’s end', () => {
    expect(fromCursor(scope, 'backward', at(60_000))).to.deep.equal({
      f: { ...scope, to: undefined },
      start: scope.to,
    });
  });

  it('walking forwards: the lower bound and the cursor, the later of the two', () => {
    expect(fromCursor(scope, 'forward', at(4, 1, 2))).to.deep.equal({
      f: { ...scope, from: undefined },
      start: at(4, 1, 2),
    });
    const later = { ...scope, from: at(10, 3) };
    expect(fromCursor(later, 'forward', at(10, 2, 9))).to.deep.equal({
      f: { ...later, from: undefined },
      start: at(10, 3),
    });
  });

  it('leaves a walk without a cursor, or without a bound on its side, as it is', () => {
    expect(fromCursor(scope, 'backward', undefined)).to.deep.equal({ f: scope, start: undefined });
    const upTo = { ids: [], to: at(9) };
    expect(fromCursor(upTo, 'forward', at(4))).to.deep.equal({ f: upTo, start: at(4) });
  });
});
