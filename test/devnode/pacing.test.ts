import { expect } from 'chai';
import type { Reply } from '../../src/devnode/api/http.ts';
import { jitteredLatency, Pacer, timerCorrection } from '../../src/devnode/api/pacing.ts';
import { sleep } from '../../src/base/retry.ts';
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

const OK: Reply = { status: 200, body: '{}' };

/** served runs `work` through the pacer as a GET and resolves with the ms from the call until its answer. */
async function served(pacer: Pacer, work: () => Promise<void>): Promise<number> {
  const started = performance.now();
  const reply = await pacer.serve('GET', '/v3/status', () => work().then(() => OK));
  expect(reply).to.equal(OK);
  return performance.now() - started;
}

/** workers is a node whose two regulators run `n` requests each at once, with room for every test's waiting ones. */
const workers = (n: number) => ({ httpRead: { workers: n, waiting: 1000 }, httpUpdate: { workers: n, waiting: 1000 } });

describe('devnode --latency-ms and its regulators’ workers', () => {
  it('jitters each latency uniformly over ±20 %', () => {
    expect(jitteredLatency(100, () => 0)).to.equal(80);
    expect(jitteredLatency(100, () => 0.5)).to.equal(100);
    expect(jitteredLatency(100, () => 0.999999)).to.be.closeTo(120, 0.001);
  });

  it("has the node's regulators by default, and refuses sizes a node could not have", () => {
    const { queues } = new Pacer().stats();
    expect(queues.http_read.limits).to.deep.equal({ workers: 5, waiting: 100 });
    expect(queues.http_update.limits).to.deep.equal({ workers: 5, waiting: 50 });
    expect(() => new Pacer({ regulators: { httpRead: { workers: 0, waiting: 1 } } })).to.throw(RangeError);
    expect(() => new Pacer({ regulators: { httpUpdate: { workers: 1, waiting: -1 } } })).to.throw(RangeError);
    expect(() => new Pacer({ nodeProfile: '6.0.0' })).to.throw(RangeError, /no node profile 6.0.0/);
  });

  it("corrects its timers by a little of each one's error, never below 0 or above the cap", () => {
    expect(timerCorrection(0, 2, 10)).to.be.closeTo(0.1, 1e-9); // fired 2 ms late: wait 0.1 ms less next time
    expect(timerCorrection(1, -2, 10)).to.be.closeTo(0.9, 1e-9); // fired early: wait longer
    expect(timerCorrection(0, -5, 10)).to.equal(0);
    expect(timerCorrection(9.99, 100, 10)).to.equal(10);
    // a timer that is always 1 ms late is, after enough answers, corrected to fire on time
    let correction = 0;
    for (let i = 0; i < 500; i++) correction = timerCorrection(correction, 1 - correction, 10);
    expect(correction).to.be.closeTo(1, 0.01);
  });

  it('counts the work inside the latency: work shorter than it does not lengthen the answer, longer work does', async () => {
    const L = 4 * N;
    const pacer = new Pacer({ latencyMs: L, random: () => 0.5 });
    // lower bounds exact; the upper ones leave 2 N for a loaded machine's late timers, and still exclude latency + work
    const short = await served(pacer, () => sleep(3 * N));
    expect(short).to.be.at.least(L - 1);
    expect(short).to.be.below(L + 2 * N); // not L + work (L + 3 N)
    const long = await served(pacer, () => sleep(6 * N));
    expect(long).to.be.at.least(6 * N - 1);
    expect(long).to.be.below(6 * N + 2 * N); // not L + work (10 N)
    const stats = pacer.stats().queues.http_read;
    expect(stats.answers).to.equal(2);
    expect(stats.overran).to.equal(1);
    expect(stats.answerMs).to.be.at.least(L + 6 * N - 2);
  });

  it('holds each of M workers for the latency: 3 M answers take three latencies, and its counts say so', async () => {
    const M = 4;
    const L = 2 * N;
    const pacer = new Pacer({ latencyMs: L, regulators: workers(M), random: () => 0.5 });
    const started = performance.now();
    const times = await Promise.all(Array.from({ length: 3 * M }, () => served(pacer, () => Promise.resolve())));
    const all = performance.now() - started;
    expect(all).to.be.at.least(3 * L - 1);
    // the first M in one latency, the last M after three
    expect(Math.min(...times)).to.be.at.least(L - 1);
    expect(Math.max(...times)).to.be.at.least(3 * L - 1);
    expect(pacer.stats().latencyMs).to.equal(L);
    const stats = pacer.stats().queues.http_read;
    expect(stats).to.include({ answers: 3 * M, overran: 0, refused: 0 });
    expect(stats.limits.workers).to.equal(M);
    // each answer held its slot for about L (timers corrected towards it), and 2 M of them waited L or 2 L first
    expect(stats.answerMs / stats.answers).to.be.within(L - 1, 1.5 * L);
    expect(stats.queuedMs).to.be.at.least(M * L + M * 2 * L - 2 * M);
  });

  // The lower bound is the latency's promise; the upper one catches a latency paid twice (2 N), not the timers' lateness
  // on a loaded machine, which made a p50 of 73.6 ms for N = 50 beside a full test run (1.2 N failed it).
  it(`answers each request after about N ms (p50 0.8 N to 2 N, N = ${N}, beyond an unpaced node's)`, async () => {
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
      expect(median(times) - median(baseline)).to.be.within(0.8 * N, 2 * N - 1);
      // the jitter spreads them: not all the same
      expect(Math.max(...times) - Math.min(...times)).to.be.greaterThan(0.1 * N);
      // the internal port reports the external listener's counts; an unpaced devnode has none
      const stats = await paced.getInternal('/v2/debug/dev/pacing');
      expect(stats.status).to.equal(200);
      expect(stats.body).to.include({ latency_ms: N, node_profile: null, answers: 25, refused: 0 });
      // an answer's own work outlasts its service time only where the machine is that slow for everyone: no more of
      // them than unpaced answers slower than half the latency (a loaded run once had one at 56 ms a request)
      const slowUnpaced = baseline.filter((ms) => ms >= N / 2).length;
      expect(Number(stats.body.overran), `unpaced answers ${baseline.join(', ')} ms`).to.be.at.most(slowUnpaced);
      expect(stats.body.queues.http_read).to.include({ workers: 5, max_waiting: 100, answers: 25 });
      expect(Number(stats.body.answer_ms) / 25).to.be.at.least(0.8 * N);
      // an unpaced devnode still has the node's regulators, and counts its answers without a latency
      const unpacedStats = await unpaced.getInternal('/v2/debug/dev/pacing');
      expect(unpacedStats.body).to.include({ latency_ms: null, answers: 25, refused: 0 });
    } finally {
      await paced.node.stop();
      await unpaced.node.stop();
    }
  });

  // issue 44: this was a timing assertion (two rounds took longer than one by 0.4 L) that failed on a loaded machine;
  // which requests hold a slot is what the limit decides, and that is observable without a clock
  it('serves M requests at once and admits those beyond M in arrival order, each as a worker frees', async () => {
    const M = 4;
    const pacer = new Pacer({ regulators: workers(M) });
    const admitted: number[] = [];
    const delivered: number[] = [];
    const finish: (() => void)[] = [];
    const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
    const all = Array.from({ length: M + 2 }, (_, i) =>
      pacer
        .serve('GET', '/v3/status', () => {
          admitted.push(i);
          return new Promise<Reply>((resolve) => (finish[i] = () => resolve({ status: 200, body: String(i) })));
        })
        .then((reply) => delivered.push(Number(reply.body))),
    );
    await settle();
    expect(admitted).to.deep.equal([0, 1, 2, 3]);
    finish[2]!();
    await settle();
    expect(delivered).to.deep.equal([2]);
    expect(admitted).to.deep.equal([0, 1, 2, 3, 4]);
    finish[4]!();
    await settle();
    expect(admitted).to.deep.equal([0, 1, 2, 3, 4, 5]);
    for (const i of [0, 1, 3, 5]) finish[i]!();
    await Promise.all(all);
    expect(delivered).to.deep.equal([2, 4, 0, 1, 3, 5]);
    expect(pacer.stats().queues.http_read).to.include({ answers: M + 2, overran: 0, refused: 0 });
  });
});
