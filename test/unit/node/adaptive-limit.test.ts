import { expect } from 'chai';
import { AdaptiveLimit } from '../../../src/node/adaptive-limit.ts';

/**
 * simulate drives the limit against a model node: M slots, latency N with ±20 % jitter, a FIFO queue beyond M,
 * and a client that always has work (it keeps `limit` requests in flight). Time advances by whole rounds.
 */
function simulate(limit: AdaptiveLimit, slots: number, latencyMs: number, rounds: number): number[] {
  let seed = 1;
  const random = (): number => (seed = (seed * 16807) % 2147483647) / 2147483647;
  const seen: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const n = limit.limit;
    for (let i = 0; i < n; i++) limit.started();
    // with n in flight and `slots` served at once, request i waits floor(i / slots) latencies before its own
    for (let i = 0; i < n; i++) limit.finished(latencyMs * (Math.floor(i / slots) + 0.8 + 0.4 * random()));
    seen.push(limit.limit);
  }
  return seen;
}

describe('AdaptiveLimit', () => {
  it('grows from its initial limit to somewhat above the node slots (never below) and stays there', () => {
    for (const slots of [8, 32, 64]) {
      const seen = simulate(new AdaptiveLimit({ initial: 4 }), slots, 20, 400);
      const settled = seen.slice(-100);
      expect(Math.min(...settled), `slots ${slots}`).to.be.at.least(slots);
      expect(Math.max(...settled), `slots ${slots}`).to.be.at.most(1.5 * slots + 8);
    }
  });

  it('comes down when the node serves fewer at once', () => {
    const limit = new AdaptiveLimit({ initial: 4 });
    simulate(limit, 64, 20, 300);
    const settled = simulate(limit, 16, 20, 300).slice(-50);
    expect(Math.max(...settled)).to.be.at.most(1.5 * 16 + 8);
    expect(Math.min(...settled)).to.be.at.least(16);
  });

  it('does not grow while the client asks for less than the limit', () => {
    const limit = new AdaptiveLimit({ initial: 8 });
    for (let i = 0; i < 200; i++) {
      limit.started();
      limit.finished(20);
    }
    expect(limit.limit).to.equal(8);
    expect(limit.baselineMs).to.equal(20);
  });

  it('stays within its bounds and counts what is in flight', () => {
    const limit = new AdaptiveLimit({ initial: 1000, max: 50, min: 3 });
    expect(limit.limit).to.equal(50);
    limit.started();
    expect(limit.inFlight).to.equal(1);
    expect(limit.free).to.equal(true);
    limit.finished();
    expect(limit.inFlight).to.equal(0);
  });
});
