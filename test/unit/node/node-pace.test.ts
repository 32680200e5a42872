/** @module A node's pace after refusals (node-pace.ts): pauses from a clock the test drives. */
import { expect } from 'chai';
import { Pace } from '../../../src/node/node-pace.ts';

describe("Pace: a node's pause after it refused a request for load", () => {
  it('pauses 100 ms, doubling with each refusal in a row up to 3 s; a burst counts once; an admission starts it short', () => {
    const pace = new Pace();
    let now = 1_000_000;
    const pauses: number[] = [];
    for (let i = 0; i < 7; i++) {
      const ms = pace.refused(now);
      pauses.push(ms);
      // the rest of the burst, sent before the pause began, lengthens it no further
      expect(pace.refused(now + 1)).to.equal(ms - 1);
      expect(pace.pausedAt(now + ms - 1)).to.equal(true);
      now += ms;
      expect(pace.pausedAt(now)).to.equal(false);
    }
    // each within the backoff's jitter (a fifth) of 100 ms doubling to 3 s
    [100, 200, 400, 800, 1600, 3000, 3000].forEach((nominal, i) =>
      expect(pauses[i], `pause ${i}`).to.be.within(0.8 * nominal, Math.min(3000, 1.2 * nominal)),
    );
    // still refusing after the pause: 3 s again; a request admitted in between: short again
    now += 10_000;
    expect(pace.refused(now)).to.be.within(2400, 3000);
    now = pace.until;
    pace.admitted();
    expect(pace.refused(now)).to.be.within(80, 120);
  });

  it('pauses as long as the node asked when that is longer, and lengthens a pause to a later refusal’s wait', () => {
    const pace = new Pace();
    expect(pace.refused(0, 3000)).to.equal(3000);
    expect(pace.refused(10, 5000)).to.equal(5000);
    expect(pace.until).to.equal(5010);
  });
});
