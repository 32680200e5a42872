import { expect } from 'chai';
import { AdaptiveLimit, lowerQuartile } from '../../../src/node/adaptive-limit.ts';

interface Simulated {
  /** the limit after each answer */
  readonly limits: number[];
  /** answers per second over the node's ideal (slots ÷ latency), in the second half of the time (settled) */
  readonly ofIdeal: number;
}

/**
 * simulate drives the limit against a model node in steady state: M slots, latency N with ±20 % jitter, a FIFO
 * queue beyond M, and a client that always has work (as each answer arrives it tops its requests in flight up to
 * the limit). `stall` models the client's own event loop: every `everyMs` it is busy for `ms` (decoding a
 * generation, writing a batch, a loaded machine), and sees the answers that arrive meanwhile, and sends again, only
 * when it is done.
 */
/** the simulated clock, carried from one simulation to the next as the limit's own (a real one never goes back) */
let clockMs = 0;

function simulate(
  limit: AdaptiveLimit,
  slots: number,
  latencyMs: number,
  seconds: number,
  stall = { everyMs: Infinity, ms: 0 },
): Simulated {
  let seed = 1;
  const random = (): number => (seed = (seed * 16807) % 2147483647) / 2147483647;
  const freeAt: number[] = Array.from({ length: slots }, () => 0);
  // answers in flight as [when the node writes it, when it was sent], the earliest last
  const inFlight: [number, number][] = [];
  const send = (now: number): void => {
    limit.started();
    const slot = freeAt.indexOf(Math.min(...freeAt));
    const done = Math.max(now, freeAt[slot]!) + latencyMs * (0.8 + 0.4 * random());
    freeAt[slot] = done;
    // keep the earliest last: insert before the first that is done earlier
    let lo = 0;
    let hi = inFlight.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (inFlight[mid]![0] > done) lo = mid + 1;
      else hi = mid;
    }
    inFlight.splice(lo, 0, [done, now]);
  };
  const limits: number[] = [];
  let answers = 0;
  while (limit.inFlight < limit.limit) send(0);
  for (let now = 0; now < seconds * 1000;) {
    const [done, sent] = inFlight.pop()!;
    const stallStart = Math.floor(done / stall.everyMs) * stall.everyMs;
    now = done < stallStart + stall.ms ? stallStart + stall.ms : done;
    limit.finished(now - sent, clockMs + now);
    if (now >= seconds * 500) answers++;
    while (limit.inFlight < limit.limit) send(now);
    limits.push(limit.limit);
  }
  // the client goes away: what is in flight ends without an answer (the limit's next use starts from none)
  for (let i = inFlight.length; i > 0; i--) limit.finished();
  clockMs += seconds * 1000;
  return { limits, ofIdeal: answers / (seconds / 2) / ((slots * 1000) / latencyMs) };
}

describe('AdaptiveLimit', () => {
  it('grows from its initial limit to somewhat above the node slots (never below) and stays there', () => {
    for (const [slots, latencyMs] of [
      [8, 20],
      [32, 20],
      [64, 20],
      [32, 5],
      [32, 100],
    ] as const) {
      // 500 round trips
      const run = simulate(new AdaptiveLimit({ initial: 4 }), slots, latencyMs, latencyMs / 2);
      const settled = run.limits.slice(-run.limits.length / 2);
      expect(Math.min(...settled), `slots ${slots}`).to.be.at.least(slots);
      expect(Math.max(...settled), `slots ${slots}`).to.be.at.most(1.6 * slots + 8);
      expect(run.ofIdeal, `slots ${slots}`).to.be.at.least(0.98);
    }
  });

  it('comes down when the node serves fewer at once', () => {
    const limit = new AdaptiveLimit({ initial: 4 });
    simulate(limit, 64, 20, 20);
    const run = simulate(limit, 16, 20, 20);
    const settled = run.limits.slice(-run.limits.length / 2);
    expect(Math.max(...settled)).to.be.at.most(1.6 * 16 + 8);
    expect(Math.min(...settled)).to.be.at.least(16);
  });

  it("keeps the node's slots full through the client's own stalls (they are not the node queueing)", () => {
    // a client busy 40 % of the time in 40 ms stretches (decoding, transforming, a loaded machine) sees the answers
    // late: read as queueing at the node (the window's average against the baseline), that shrank the limit, below
    // the node's slots at 32, and the node got 0.82 (8 slots) and 0.69 (32) of its ideal; the window's fastest
    // answer is late only when the node queues
    // against a 5 ms node a round of answers is shorter than a stall: rounds inside one held the limit at 10–16 of 32
    for (const [slots, latencyMs] of [
      [8, 20],
      [32, 20],
      [32, 5],
    ] as const) {
      const run = simulate(new AdaptiveLimit({ initial: 4 }), slots, latencyMs, 20, { everyMs: 100, ms: 40 });
      const settled = run.limits.slice(-run.limits.length / 2);
      expect(Math.min(...settled), `slots ${slots}`).to.be.at.least(slots);
      expect(run.ofIdeal, `slots ${slots}`).to.be.at.least(0.88);
    }
  });

  it('keeps the slots full when the node gets slower for reasons other than our requests', () => {
    // a baseline seen in a quiet moment (here: a 5 ms node) read every later answer of a node that got slower (12
    // ms: other clients, its own load, a devnode whose timers ran early) as queued, and the limit fell to about 10
    // of 32 slots for good: 0.35 of the node's ideal
    const limit = new AdaptiveLimit({ initial: 4 });
    simulate(limit, 32, 5, 5);
    const run = simulate(limit, 32, 12, 20);
    const settled = run.limits.slice(-run.limits.length / 2);
    expect(Math.min(...settled)).to.be.at.least(32);
    expect(run.ofIdeal).to.be.at.least(0.95);
    expect(limit.baselineMs).to.be.at.least(9);
  });

  it('takes its baseline from a quarter of a window, so that one fast answer does not make every later one look queued', () => {
    const limit = new AdaptiveLimit({ initial: 8 });
    limit.started();
    limit.finished(1, clockMs); // e.g. a small answer among large ones
    simulate(limit, 32, 20, 10);
    expect(limit.baselineMs).to.be.at.least(16);
    expect(limit.limit).to.be.at.least(32);
    expect(lowerQuartile([5, 1, 4, 2, 3, 8, 7, 6])).to.equal(2);
    expect(lowerQuartile([3])).to.equal(3);
  });

  it('does not grow while the client asks for less than the limit', () => {
    const limit = new AdaptiveLimit({ initial: 8 });
    for (let i = 0; i < 200; i++) {
      limit.started();
      limit.finished(20, 20 * i);
    }
    expect(limit.limit).to.equal(8);
    expect(limit.baselineMs).to.equal(20);
  });

  // issue 87: a node that refuses queues nothing, so its round trips stay at the baseline and the windows would grow
  // the limit past its admission again at once; the ceiling a refusal sets holds it below for a while
  it('cuts the limit and a ceiling over it at a refusal, and raises the ceiling by one each 5 s without one', () => {
    const limit = new AdaptiveLimit({ initial: 20, max: 105 });
    let now = 0;
    /** a window of answers at the baseline, the limit filled: it grows the limit when nothing bounds it */
    const window = (): void => {
      for (let i = 0; i < limit.limit; i++) limit.started();
      for (let i = limit.limit; i > 0; i--) limit.finished(20, (now += 1));
      now += 100;
    };
    limit.refused(now);
    expect(limit.limit).to.equal(14);
    for (let i = 0; i < 10; i++) window();
    expect(limit.limit, 'held at the ceiling while the node keeps refusing').to.equal(14);
    now += 5000;
    window();
    expect(limit.limit, 'one more after 5 s without a refusal').to.equal(15);
    limit.refused(now);
    expect(limit.limit).to.equal(10);
    for (let i = 0; i < 100; i++) limit.refused(now);
    expect(limit.limit, 'never below its minimum').to.equal(2);
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
