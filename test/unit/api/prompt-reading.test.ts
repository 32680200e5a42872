import { expect } from 'chai';
import { PromptReading } from '../../../src/api/http/prompt-reading.ts';

describe('PromptReading (issue 79)', () => {
  it('answers within its wait what is known while a reading is late, and the reading once it came', async () => {
    let answer: ((value: string) => void) | undefined;
    let reads = 0;
    const reading = new PromptReading<string>({
      read: () => {
        reads++;
        return new Promise((resolve) => (answer = resolve));
      },
      ttlMs: 1000,
      waitMs: 50,
      late: () => 'unreachable',
    });
    const t0 = performance.now();
    expect(await reading.get()).to.equal('unreachable');
    const waited = performance.now() - t0;
    expect(waited).to.be.within(45, 500);
    // the reading under way is late already: the next caller is answered at once, and no second reading starts
    const t1 = performance.now();
    expect(await reading.get()).to.equal('unreachable');
    expect(performance.now() - t1).to.be.below(40);
    expect(reads).to.equal(1);
    // the dependency answers: the callers after have its answer, kept for the rest of the period, without waiting
    answer!('height 7');
    await new Promise((resolve) => setImmediate(resolve));
    const t2 = performance.now();
    expect(await reading.get()).to.equal('height 7');
    expect(performance.now() - t2).to.be.below(40);
    expect(reads).to.equal(1);
  });

  it('waits for a reading that answers in time, callers sharing it', async () => {
    let now = 0;
    let reads = 0;
    const reading = new PromptReading({
      read: async () => ++reads,
      ttlMs: 1000,
      waitMs: 50,
      late: () => 0,
      now: () => now,
    });
    expect(await Promise.all([reading.get(), reading.get()])).to.deep.equal([1, 1]);
    now = 1000;
    expect(await reading.get()).to.equal(2);
  });
});
