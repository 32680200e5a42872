import { expect } from 'chai';
import { Deadlines } from '../../../src/api/http/deadlines.ts';

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe('Deadlines (the running works on one timer)', () => {
  // A loaded machine wakes timers late, and works overdue together expire in one pass in no set order: the test
  // asserts what a request relies on (no work expires before its deadline, an ended one never, an earlier deadline
  // watched later is not held up by the later one), with margins a late timer does not cross.
  it('expires each work at its deadline, also one watched after a later one, and none that ended before', async () => {
    const deadlines = new Deadlines();
    const expiredAt = new Map<string, number>();
    const start = performance.now();
    const at = (name: string, ms: number): (() => void) =>
      deadlines.watch(start + ms, () => expiredAt.set(name, performance.now() - start - ms));
    at('late', 600);
    at('early', 20);
    const ended = at('ended', 60);
    at('middle', 60);
    ended();
    while (expiredAt.size < 3) await sleep(10);
    expect([...expiredAt.keys()].sort()).to.deep.equal(['early', 'late', 'middle']);
    for (const [name, late] of expiredAt) expect(late, name).to.be.at.least(0);
    // the timer was set again for `early`, watched after `late`: it did not wait for late's deadline
    expect(expiredAt.get('early')!).to.be.below(580);
    expect(deadlines.watching).to.equal(0);
  });

  it('expires at once a work whose deadline has passed, and forgets one that ended', async () => {
    const deadlines = new Deadlines();
    let expired = 0;
    deadlines.watch(performance.now() - 1, () => expired++);
    const ended = deadlines.watch(performance.now() + 60_000, () => expired++);
    await sleep(5);
    expect(expired).to.equal(1);
    ended();
    expect(deadlines.watching).to.equal(0);
  });
});
