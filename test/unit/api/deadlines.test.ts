import { expect } from 'chai';
import { Deadlines } from '../../../src/api/http/deadlines.ts';

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe('Deadlines (the running works on one timer)', () => {
  it('expires each work at its deadline, also one watched after a later one, and none that ended before', async () => {
    const deadlines = new Deadlines();
    const expired: string[] = [];
    const start = performance.now();
    const at = (name: string, ms: number): (() => void) =>
      deadlines.watch(start + ms, () => expired.push(`${name} after ${Math.round(performance.now() - start) >= ms}`));
    at('late', 120);
    at('early', 40);
    const ended = at('ended', 80);
    at('middle', 80);
    ended();
    await sleep(60);
    expect(expired).to.deep.equal(['early after true']);
    await sleep(100);
    expect(expired).to.deep.equal(['early after true', 'middle after true', 'late after true']);
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
