import { expect } from 'chai';
import { jitteredLatency, pacing } from '../../src/devnode/pacing.ts';
import { startTestNode, type TestNode } from './harness.ts';

const N = 50;

async function timed(node: TestNode): Promise<number> {
  const started = performance.now();
  const reply = await node.get('/v2/key-blocks/current/height');
  expect(reply.status).to.equal(200);
  return performance.now() - started;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

describe('devnode --latency-ms and --max-concurrent-requests', () => {
  it('jitters each latency uniformly over ±20 %', () => {
    expect(jitteredLatency(100, () => 0)).to.equal(80);
    expect(jitteredLatency(100, () => 0.5)).to.equal(100);
    expect(jitteredLatency(100, () => 0.999999)).to.be.closeTo(120, 0.001);
  });

  it('answers at once and without a limit by default, and refuses a limit below 1', () => {
    expect(pacing({})).to.equal(undefined);
    expect(() => pacing({ maxConcurrentRequests: 0 })).to.throw(RangeError);
  });

  it(`answers each request after about N ms (p50 within 20 % of N = ${N} beyond an unpaced node's)`, async () => {
    // the machine's own overhead per request (tens of ms when it is loaded) is measured beside, in the same loop
    const paced = await startTestNode({ latencyMs: N });
    const unpaced = await startTestNode();
    try {
      const times: number[] = [];
      const baseline: number[] = [];
      for (let i = 0; i < 25; i++) {
        times.push(await timed(paced));
        baseline.push(await timed(unpaced));
      }
      expect(median(times)).to.be.at.least(0.8 * N);
      expect(median(times) - median(baseline)).to.be.within(0.8 * N, 1.2 * N);
      // the jitter spreads them: not all the same
      expect(Math.max(...times) - Math.min(...times)).to.be.greaterThan(0.1 * N);
    } finally {
      await paced.node.stop();
      await unpaced.node.stop();
    }
  });

  it('queues requests beyond M: M + k at once take about two rounds, M take one', async () => {
    const M = 4;
    // a longer latency than above: on a loaded machine a round's overhead is tens of milliseconds
    const L = 2 * N;
    const node = await startTestNode({ latencyMs: L, maxConcurrentRequests: M });
    try {
      const round = async (count: number): Promise<number> => {
        const started = performance.now();
        await Promise.all(Array.from({ length: count }, () => timed(node)));
        return performance.now() - started;
      };
      await round(M); // open the connections first
      const one = await round(M);
      const two = await round(M + 2);
      // lower bounds only: a loaded machine adds to every round, it never takes away
      expect(one).to.be.at.least(0.8 * L);
      // the two beyond M start only when a slot frees: at least two short latencies, one more round than M alone
      expect(two).to.be.at.least(1.6 * L);
      expect(two - one).to.be.greaterThan(0.4 * L);
    } finally {
      await node.node.stop();
    }
  });
});
