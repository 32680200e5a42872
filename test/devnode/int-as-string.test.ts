/** @module The node's /v3 `int-as-string` conversion and flag, alone. */
import { expect } from 'chai';
import { HttpError } from '../../src/devnode/api/http.ts';
import { intAsStringFlag, intsAsStrings } from '../../src/devnode/api/int-as-string.ts';

describe('devnode int-as-string', () => {
  it('turns every integer, nested and beyond 2^53, into its digits, and leaves the rest', () => {
    const value = { a: 1, b: [2, { c: 12345678901234567890n }], d: 'x', e: true, f: null, g: 1.5, sync_progress: 100 };
    expect(intsAsStrings(value)).to.deep.equal({
      a: '1',
      b: ['2', { c: '12345678901234567890' }],
      d: 'x',
      e: true,
      f: null,
      g: 1.5,
      sync_progress: 100,
    });
  });

  it('reads the flag as a boolean of either case, bare as true, and fails on anything else as the node does (empty 500)', () => {
    const flag = (q: string): boolean => intAsStringFlag(new URLSearchParams(q));
    expect([flag(''), flag('int-as-string'), flag('int-as-string=True'), flag('int-as-string=false')]).to.deep.equal([
      false,
      true,
      true,
      false,
    ]);
    expect(() => flag('int-as-string=1'))
      .to.throw(HttpError)
      .that.includes({ status: 500, body: undefined });
  });
});
