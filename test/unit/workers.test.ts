/**
 * @module workers: mapLimit's bounded concurrency with results in input order; largestFirst's uneven items over a fixed
 * set of workers, the largest left taken by whichever is free; both stopping at a failure and rejecting once nothing runs.
 */
import { expect } from 'chai';
import { setTimeout as sleep } from 'node:timers/promises';
import { largestFirst, mapLimit } from '../../src/base/workers.ts';

describe('mapLimit', () => {
  it('keeps at most `limit` calls in flight and returns results in input order', async () => {
    let inFlight = 0;
    let most = 0;
    const out = await mapLimit([5, 1, 4, 2, 3], 2, async (n) => {
      most = Math.max(most, ++inFlight);
      await sleep(n);
      inFlight--;
      return n * 10;
    });
    expect(out).to.deep.equal([50, 10, 40, 20, 30]);
    expect(most).to.equal(2);
    expect(await mapLimit([], 4, async () => 1)).to.deep.equal([]);
  });

  it('starts no item after a call failed and rejects with the first failure once the running calls ended', async () => {
    const started: number[] = [];
    const ended: number[] = [];
    const err = await mapLimit([1, 2, 30, 4, 5, 6], 2, async (n) => {
      started.push(n);
      try {
        await sleep(n);
        if (n === 2 || n === 30) throw new Error(`${n} failed`);
        return n;
      } finally {
        ended.push(n);
      }
    }).catch((e: unknown) => e);
    // 1 and 2 start at once, 30 when 1 ends (before 2 fails), then nothing; 30's own failure, later, is not the one
    expect(started).to.deep.equal([1, 2, 30]);
    expect((err as Error).message).to.equal('2 failed');
    // the rejection came once 30 had ended: nothing of the failed work still runs
    expect(ended).to.deep.equal([1, 2, 30]);
  });
});

const item = (name: string, bytes: number) => ({ name, bytes });

describe('largestFirst', () => {
  it('starts the largest items first and gives each free worker the largest left', async () => {
    const ran: string[] = [];
    let releaseLargest = (): void => {};
    const largestHeld = new Promise<void>((resolve) => (releaseLargest = resolve));
    // worker a holds the largest item until every other has run: b, free at once each time, takes them all in order
    await largestFirst(
      ['a', 'b'],
      [item('s10', 10), item('s50', 50), item('s30', 30), item('s40', 40), item('s20', 20)],
      async (worker, it) => {
        ran.push(`${worker}:${it.name}`);
        if (it.name === 's50') await largestHeld;
        else if (it.name === 's10') releaseLargest();
        await sleep(1);
      },
    );
    expect(ran).to.deep.equal(['a:s50', 'b:s40', 'b:s30', 'b:s20', 'b:s10']);
  });

  it('starts nothing after a failure, and rejects with it once the running items have ended', async () => {
    const ended: string[] = [];
    const failure = new Error('the COPY failed');
    const result = await largestFirst(
      ['a', 'b'],
      [item('fails', 30), item('slow', 20), item('never', 10)],
      async (_worker, it) => {
        if (it.name === 'fails') {
          await sleep(10);
          throw failure;
        }
        await sleep(100);
        ended.push(it.name);
      },
    ).then(
      () => 'resolved',
      (err: unknown) => err,
    );
    expect(result).to.equal(failure);
    // the item running when the other failed ended before the rejection; the one left was never started
    expect(ended).to.deep.equal(['slow']);
  });

  it('runs nothing and resolves for no items', async () => {
    let calls = 0;
    await largestFirst(['a'], [], async () => {
      calls++;
    });
    expect(calls).to.equal(0);
  });
});
