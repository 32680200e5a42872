import { expect } from 'chai';
import { Coalescer } from '../../src/base/coalescer.ts';

describe('Coalescer', () => {
  it('runs the calls of one turn as one batch and gives each caller its own answer', async () => {
    const batches: number[][] = [];
    const double = new Coalescer<number, number>(async (xs) => {
      batches.push([...xs]);
      return xs.map((x) => x * 2);
    });
    const first = await Promise.all([double.call(1), double.call(2), double.call(3)]);
    const later = await double.call(4);
    expect(first).to.deep.equal([2, 4, 6]);
    expect(later).to.equal(8);
    expect(batches).to.deep.equal([[1, 2, 3], [4]]);
  });

  it('fails every call of a failed batch, and the next batch runs on its own', async () => {
    let fail = true;
    const c = new Coalescer<string, string>(async (xs) => {
      if (fail) throw new Error('statement failed');
      return xs.map((x) => x.toUpperCase());
    });
    const failed = await Promise.allSettled([c.call('a'), c.call('b')]);
    expect(failed.map((r) => r.status)).to.deep.equal(['rejected', 'rejected']);
    fail = false;
    expect(await c.call('c')).to.equal('C');
  });
});
