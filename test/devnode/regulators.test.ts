/**
 * @module The devnode's regulators, as a real node 7.2.2's (test/fixtures/real-node/overload.json): 5 GETs running
 * and 100 waiting, 5 POSTs running and 50 waiting, the rest refused at once with the recorded 503, no connection
 * dropped. Counts and order, not times: the work is held by the test where the count must be exact.
 */
import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import type { Reply } from '../../src/devnode/api/http.ts';
import { Pacer } from '../../src/devnode/api/pacing.ts';
import { HTTP_READ, HTTP_UPDATE, parseQueueLimits, Regulator } from '../../src/devnode/api/regulator.ts';
import { startTestNode, type TestNode } from './harness.ts';

/** the recording's bursts and the one 503 answer it got */
const recorded = JSON.parse(readFileSync(new URL('../fixtures/real-node/overload.json', import.meta.url), 'utf8')) as {
  bursts: Record<
    string,
    {
      n: number;
      count_200: number;
      count_503: number;
      closed_without_answer: number;
      non200_answers: { status: number; body: string; headers: Record<string, string>; retry_after_present: boolean }[];
    }
  >;
};
const refusal = recorded.bursts.key_block_same_300!.non200_answers[0]!;

/** settle lets every promise resolved so far run its callbacks. */
const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Held is work the test releases: a request that holds its worker until then. */
class Held {
  readonly #releases: (() => void)[] = [];
  work = (): Promise<Reply> =>
    new Promise((resolve) => this.#releases.push(() => resolve({ status: 200, body: '{}' })));
  get started(): number {
    return this.#releases.length;
  }
  releaseAll(): void {
    for (const r of this.#releases.splice(0)) r();
  }
}

describe('devnode regulators (http_read, http_update)', () => {
  it("has a node's default sizes: 5 running and 100 waiting for GETs, 5 and 50 for POSTs", () => {
    expect(HTTP_READ).to.deep.equal({ workers: 5, waiting: 100 });
    expect(HTTP_UPDATE).to.deep.equal({ workers: 5, waiting: 50 });
    expect(parseQueueLimits('--http-read', '2:7')).to.deep.equal({ workers: 2, waiting: 7 });
    for (const bad of ['0:5', '5', '5:-1', 'a:b', '5:1.5'])
      expect(() => parseQueueLimits('--http-read', bad), bad).to.throw(/--http-read must be W:Q/);
  });

  it('admits W at once, queues Q in arrival order, rejects the rest at once and holds nothing for them', async () => {
    const r = new Regulator({ workers: 2, waiting: 3 });
    const order: number[] = [];
    const turns = Array.from({ length: 7 }, (_, i) => r.ask()?.then(() => order.push(i)));
    expect(turns.map((t) => t !== undefined)).to.deep.equal([true, true, true, true, true, false, false]);
    await settle();
    expect([order, r.running, r.waiting]).to.deep.equal([[0, 1], 2, 3]);
    r.done();
    await settle();
    expect([order, r.running, r.waiting]).to.deep.equal([[0, 1, 2], 2, 2]);
    expect(r.ask(), 'a place in the queue freed').to.not.equal(undefined);
    for (let i = 0; i < 5; i++) r.done();
    await settle();
    expect([order, r.running, r.waiting]).to.deep.equal([[0, 1, 2, 3, 4], 0, 0]);
  });

  it('refuses a burst beyond the queue at once with the recorded 503, and answers every request it took', async () => {
    const pacer = new Pacer();
    const held = new Held();
    const replies: (Reply | undefined)[] = new Array(300);
    const all = Array.from({ length: 300 }, (_, i) =>
      pacer.serve('GET', '/v3/key-blocks/height/273', held.work).then((reply) => (replies[i] = reply)),
    );
    await settle();
    // nothing has finished: 5 run, 100 wait, 195 were answered already, each with the node's refusal
    expect(held.started).to.equal(5);
    const early = replies.filter((r) => r !== undefined);
    expect(early).to.have.length(195);
    expect(
      replies.slice(0, 105).every((r) => r === undefined),
      'the first 105 are in',
    ).to.equal(true);
    for (const r of early) expect([r!.status, r!.body, r!.headers]).to.deep.equal([503, refusal.body, undefined]);
    expect(pacer.stats().queues.http_read).to.include({ running: 5, waiting: 100, refused: 195 });
    // released, the queue drains five at a time and every request taken is answered
    while (held.started > 0) {
      held.releaseAll();
      await settle();
    }
    await Promise.all(all);
    expect(replies.filter((r) => r!.status === 200)).to.have.length(105);
    expect(pacer.stats().queues.http_read).to.include({ running: 0, waiting: 0, answers: 105, refused: 195 });
  });

  it('refuses nothing within the queue, and gives POSTs a queue of their own: 55 take a full GET queue’s place', async () => {
    const pacer = new Pacer();
    const held = new Held();
    const gets = Array.from({ length: 105 }, () => pacer.serve('GET', '/v3/status', held.work));
    const posts = Array.from({ length: 56 }, () => pacer.serve('POST', '/v3/dry-run', held.work));
    await settle();
    expect(held.started, '5 GETs and 5 POSTs run').to.equal(10);
    const { http_read: read, http_update: update } = pacer.stats().queues;
    expect([read.running, read.waiting, read.refused]).to.deep.equal([5, 100, 0]);
    expect([update.running, update.waiting, update.refused]).to.deep.equal([5, 50, 1]);
    while (held.started > 0) {
      held.releaseAll();
      await settle();
    }
    const statuses = (await Promise.all([...gets, ...posts])).map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).to.have.length(160);
    expect(statuses.filter((s) => s === 503)).to.have.length(1);
  });

  it('says Retry-After only when told to, as a node after 7.2.2 does', async () => {
    const held = new Held();
    const later = new Pacer({ overloadRetryAfter: 3, regulators: { httpRead: { workers: 1, waiting: 0 } } });
    const taken = later.serve('GET', '/v3/status', held.work);
    const refused = await later.serve('GET', '/v3/status', held.work);
    expect([refused.status, refused.headers]).to.deep.equal([503, { 'retry-after': '3' }]);
    held.releaseAll();
    expect((await taken).status).to.equal(200);
    // without regulators nothing waits and nothing is refused
    const unbounded = new Pacer({ regulators: false });
    const many = Array.from({ length: 500 }, () => unbounded.serve('POST', '/v3/dry-run', held.work));
    await settle();
    expect(held.started).to.equal(500);
    held.releaseAll();
    expect((await Promise.all(many)).every((r) => r.status === 200)).to.equal(true);
  });

  describe('over HTTP', function () {
    this.timeout(60_000);
    const nodes: TestNode[] = [];
    after(async () => {
      for (const t of nodes) await t.node.stop();
    });

    it('answers a burst of 300 key block reads as the node did: the recorded 503, none dropped', async () => {
      // each answer takes 300 ms: 5 leave every 300 ms, so a burst coming in over a second or two still overflows
      const t = await startTestNode({ latencyMs: 300 });
      nodes.push(t);
      await t.node.mineKeyBlock();
      const answers = await Promise.all(
        Array.from({ length: 300 }, async () => {
          const res = await fetch(`${t.node.externalUrl}/v3/key-blocks/height/1`);
          return { status: res.status, body: await res.text(), headers: res.headers };
        }),
      );
      const refused = answers.filter((a) => a.status === 503);
      const served = answers.filter((a) => a.status === 200);
      expect(refused.length + served.length, 'every request answered, 200 or 503').to.equal(300);
      // at least the 105 the regulator holds are served (the recorded node 140, its burst coming in over 0.8 s)
      expect(served.length).to.be.at.least(105);
      expect(refused.length).to.be.greaterThan(0);
      for (const a of refused) {
        expect(a.body).to.equal(refusal.body);
        expect(a.headers.get('content-type')).to.equal(refusal.headers['content-type']);
        expect(a.headers.get('server')).to.equal(refusal.headers.server);
        expect(a.headers.get('retry-after')).to.equal(refusal.retry_after_present ? '3' : null);
      }
      const stats = await t.getInternal('/v2/debug/dev/pacing');
      expect(stats.body.queues.http_read).to.include({ running: 0, waiting: 0, refused: refused.length });
    });

    it("shares a node's queues between its ports; its router's 404 and the devnode's controls take no turn", async () => {
      // one GET at a time and none waiting: a GET that holds the worker for 2 s fills http_read
      const t = await startTestNode({ latencyMs: 2000, regulators: { httpRead: { workers: 1, waiting: 0 } } });
      nodes.push(t);
      const held = t.get('/v3/status');
      let running = 0;
      while (running === 0) running = (await t.getInternal('/v2/debug/dev/pacing')).body.queues.http_read.running;
      const [internal, unknown, post] = await Promise.all([
        t.getInternal('/v2/debug/accounts/beneficiary'),
        t.get('/v3/no-such-route'),
        t.post('/v3/transactions', { tx: 'tx_bad' }),
      ]);
      expect([internal.status, internal.text]).to.deep.equal([503, refusal.body]);
      expect(unknown.status).to.equal(404);
      // a POST goes through http_update, which has room: the node's own answer to a bad transaction
      expect(post.status).to.equal(400);
      expect((await held).status).to.equal(200);
    });
  });
});
