/** @module largestFirst: uneven items over a fixed set of workers, the largest left taken by whichever is free. */
import { expect } from 'chai';
import { setTimeout as sleep } from 'node:timers/promises';
import { largestFirst } from '../../src/base/largest-first.ts';

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
