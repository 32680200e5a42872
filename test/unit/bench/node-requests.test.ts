/** @module bench/node-requests.lib.ts: a request's kind, and the node bound from a devnode's regulators' counts. */
import { expect } from 'chai';
import { kindLines, nodeBound, requestKind, type QueueCounts } from '../../../bench/node-requests.lib.ts';

const counts = (answers: number, answerMs: number, refused = 0, workers = 5): QueueCounts => ({
  workers,
  answers,
  answerMs,
  refused,
});
const zero = { read: counts(0, 0), update: counts(0, 0) };

describe('bench/node-requests.lib', () => {
  it('names the reads the populator sends by what they read, under /v2 and /v3', () => {
    const hash = 'mh_2V3wzfUNYCqvF8BnQmPWj8vWjBKN2vZ7TKMXyXX1Jxu4B8oGTe';
    expect(requestKind('GET', '/v3/generations/height/12', undefined).kind).to.match(/^GET generation/);
    expect(requestKind('GET', `/v3/micro-blocks/hash/${hash}/transactions`, undefined).kind).to.equal(
      "GET micro block's transactions",
    );
    expect(requestKind('GET', `/v3/micro-blocks/hash/${hash}/header`, undefined).kind).to.equal(
      'GET micro block header',
    );
    expect(
      requestKind('GET', '/v2/accounts/ak_2a1j2Mk9YSmC1gioUq4PWRm3bsv887MbuRVwyv4KaUGoR1eiKi', undefined).kind,
    ).to.equal('GET account');
    expect(
      requestKind('GET', `/v3/accounts/ak_2a1j2Mk9YSmC1gioUq4PWRm3bsv887MbuRVwyv4KaUGoR1eiKi/hash/${hash}`, undefined)
        .kind,
    ).to.equal('GET account at a block');
  });

  it("tells a dry-run's read-only calls, counted, from a replayed transaction", () => {
    const reads = JSON.stringify({ top: 'kh_x', txs: [{ call_req: { abi_version: 3 } }, { call_req: {} }] });
    expect(requestKind('POST', '/v3/dry-run', reads)).to.deep.equal({
      kind: 'POST dry-run: read-only contract calls',
      calls: 2,
    });
    const replay = JSON.stringify({ top: 'mh_x', txs: [{ tx: 'tx_abc' }], tx_events: true });
    expect(requestKind('POST', '/v3/debug/transactions/dry-run', replay)).to.deep.equal({
      kind: 'POST dry-run: a call replayed',
      calls: 0,
    });
  });

  it('gives a path it does not know one kind for every id in it', () =>
    expect(
      requestKind('GET', '/v3/oracles/ok_2a1j2Mk9YSmC1gioUq4PWRm3bsv887MbuRVwyv4KaUGoR1eiKi?x=1', undefined).kind,
    ).to.equal('GET /oracles/{id}'));

  it("bounds a flat-latency node by its busier regulator's workers ÷ its time per generation", () => {
    // 10 generations: 300 reads (30 a generation × 20 ms ÷ 5 workers = 120 ms: 8.33 gen/s), 50 dry-runs (20 ms: 50)
    const bound = nodeBound([zero], [{ read: counts(300, 9000, 7), update: counts(50, 1000) }], 10, 20);
    expect(bound.bound).to.equal('read');
    expect(bound.generationsPerSecond).to.be.closeTo(1000 / 120, 1e-9);
    expect(bound.read.refusedPerGeneration).to.equal(0.7);
    expect(bound.update.generationsPerSecond).to.be.closeTo(50, 1e-9);
    // the dry-runs after the reads: 120 + 20 ms a generation
    expect(bound.oneAfterOther).to.be.closeTo(1000 / 140, 1e-9);
  });

  it("takes a profile's service time from the worker-time the devnode counted, and adds the nodes' workers", () => {
    // two nodes of 5 workers: 40 dry-runs of 100 ms and 40 reads of 5 ms a generation, over 2 generations
    const after = { read: counts(40, 200), update: counts(40, 4000) };
    const bound = nodeBound([zero, zero], [after, after], 2, undefined);
    expect(bound.bound).to.equal('update');
    expect(bound.update.serviceMs).to.equal(100);
    expect(bound.update.workers).to.equal(10);
    // 40 dry-runs a generation × 100 ms ÷ 10 workers = 400 ms
    expect(bound.generationsPerSecond).to.be.closeTo(2.5, 1e-9);
  });

  it('prints the kinds per generation, most first, with their refusals', () => {
    const lines = kindLines(
      { a: { requests: 10, refused: 0, calls: 0 }, b: { requests: 40, refused: 3, calls: 80 } },
      10,
    );
    expect(lines[0]).to.include('5.00 in all');
    expect(lines[1]).to.match(/4\.000 {2}b \(2\.00 calls each\) \(3 refused: 503\)/);
    expect(lines[2]).to.match(/1\.000 {2}a$/);
  });
});
