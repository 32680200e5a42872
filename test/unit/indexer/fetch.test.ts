/** @module mapLimit: bounded concurrency, results in input order, and stopping early on request. */
import { expect } from 'chai';
import { mapLimit } from '../../../src/indexer/map-limit.ts';

describe('mapLimit', () => {
  it('keeps at most `limit` calls in flight and returns results in input order', async () => {
    let inFlight = 0;
    let most = 0;
    const out = await mapLimit([5, 1, 4, 2, 3], 2, async (n) => {
      most = Math.max(most, ++inFlight);
      await new Promise((resolve) => setTimeout(resolve, n));
      inFlight--;
      return n * 10;
    });
    expect(out).to.deep.equal([50, 10, 40, 20, 30]);
    expect(most).to.equal(2);
  });

  it('starts no item once more() is false and returns the leading items started', async () => {
    let sum = 0;
    const started: number[] = [];
    const out = await mapLimit(
      [3, 4, 5, 6, 7],
      1,
      async (n) => {
        started.push(n);
        sum += n;
        return n;
      },
      () => sum < 7,
    );
    expect(started).to.deep.equal([3, 4]);
    expect(out).to.deep.equal([3, 4]);
    // false from the start: nothing runs
    expect(
      await mapLimit(
        [1, 2],
        3,
        async (n) => n,
        () => false,
      ),
    ).to.deep.equal([]);
  });

  it('starts no item after a call failed and rejects with the first failure', async () => {
    const started: number[] = [];
    const err = await mapLimit([1, 2, 3, 4, 5, 6], 2, async (n) => {
      started.push(n);
      await new Promise((resolve) => setTimeout(resolve, n));
      if (n === 2) throw new Error('two failed');
      return n;
    }).catch((e: unknown) => e);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect((err as Error).message).to.equal('two failed');
    // 1 and 2 start at once, 3 when 1 ends (before 2 fails), then nothing
    expect(started).to.deep.equal([1, 2, 3]);
  });
});
