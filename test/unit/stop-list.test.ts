/** @module StopList: the stops of a lifecycle's parts, run last first on a failed start and on stop. */
import { expect } from 'chai';
import { StopList } from '../../src/base/stop-list.ts';

/** rejection is what `promise` rejects with (it must reject). */
async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (err) {
    return err;
  }
  throw new Error('resolved where a rejection was expected');
}

describe('StopList', () => {
  it('stops the parts started before a part that fails to start, last first, and throws the failure', async () => {
    const stops = new StopList();
    const log: string[] = [];
    const part = (name: string): void => {
      log.push(`start ${name}`);
      stops.push(() => log.push(`stop ${name}`));
    };
    const failure = new Error('the listener could not connect');
    const started = stops.starting(async () => {
      part('pool');
      part('replicas');
      part('cache');
      throw failure;
    });
    expect(await rejection(started)).to.equal(failure);
    expect(log).to.deep.equal([
      'start pool',
      'start replicas',
      'start cache',
      'stop cache',
      'stop replicas',
      'stop pool',
    ]);
  });

  it('runs every stop once when one fails, waiting for each, and throws the first failure after', async () => {
    const stops = new StopList();
    const log: string[] = [];
    stops.push(() => log.push('first'));
    stops.push(async () => {
      await new Promise((resolve) => setImmediate(resolve));
      log.push('second');
      throw new Error('second failed');
    });
    stops.push(() => log.push('third'));
    expect(await rejection(stops.unwind())).to.have.property('message', 'second failed');
    expect(log).to.deep.equal(['third', 'second', 'first']);
    await stops.unwind();
    expect(log).to.have.length(3);
  });

  it("throws a failed start's error, not a stop's", async () => {
    const stops = new StopList();
    stops.push(() => {
      throw new Error('stop failed');
    });
    expect(await rejection(stops.starting(() => Promise.reject(new Error('start failed'))))).to.have.property(
      'message',
      'start failed',
    );
  });
});
