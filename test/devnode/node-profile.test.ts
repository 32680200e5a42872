/**
 * @module `--node-profile 7.2.2`: service times calibrated from a real node's (test/fixtures/real-node/overload.json),
 * checked on a fake clock: c clients asking one after another of a 5-worker node (the regulator itself, each request
 * holding its worker for the profile's time) take the recorded wall time per answer at c = 1, 5 and 32.
 */
import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import {
  endpointKind,
  NODE_7_2_2,
  perRequestMs,
  serviceMs,
  type Calibration,
  type EndpointKind,
} from '../../src/devnode/api/node-profile.ts';
import { HTTP_READ, Regulator } from '../../src/devnode/api/regulator.ts';

type Recorded = { concurrency: number; total: number; per_request_ms: number }[];
const recorded = (
  JSON.parse(readFileSync(new URL('../fixtures/real-node/overload.json', import.meta.url), 'utf8')) as {
    service_times: Record<string, Recorded>;
  }
).service_times;
const RECORDED_KIND: Record<EndpointKind, string> = {
  key_block: 'key_block',
  micro_block_transactions: 'micro_block_transactions',
  dry_run: 'dry_run_1_spend_tx_events',
};

/**
 * closedLoop is the wall time per answer when `clients` clients ask `total` requests one after another of a node of
 * `workers` workers, on a fake clock: a request holds its worker for serviceMs at the count at the node when its turn
 * comes (the devnode's rule, without jitter), requests arrive one at a time (each its own event, as over HTTP), and
 * the next event is always the earliest answer, after which its client asks again.
 */
async function closedLoop(calibrations: readonly Calibration[], clients: number, total: number): Promise<number> {
  const regulator = new Regulator(HTTP_READ);
  const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
  let now = 0;
  let sent = 0;
  const running: number[] = [];
  const ask = async (): Promise<void> => {
    const turn = regulator.ask();
    if (!turn) throw new Error('refused: the test asks within the queue');
    sent++;
    void turn.then(() =>
      running.push(now + serviceMs(calibrations, regulator.running + regulator.waiting, HTTP_READ.workers)),
    );
    await settle();
  };
  for (let i = 0; i < Math.min(clients, total); i++) await ask();
  for (let answered = 0; answered < total; answered++) {
    running.sort((a, b) => a - b);
    now = running.shift()!;
    regulator.done();
    await settle();
    if (sent < total) await ask();
  }
  return now / total;
}

describe('devnode --node-profile 7.2.2', () => {
  it('is calibrated at the loads the recording has, for each kind it timed', () => {
    for (const kind of Object.keys(NODE_7_2_2) as EndpointKind[])
      expect(NODE_7_2_2[kind].map((c) => c.concurrency)).to.deep.equal(
        recorded[RECORDED_KIND[kind]]!.map((r) => r.concurrency),
      );
  });

  it('times a micro block’s transactions as those, every other GET as a key block, every POST as a dry-run', () => {
    expect(endpointKind('GET', '/v3/micro-blocks/hash/mh_x/transactions')).to.equal('micro_block_transactions');
    expect(endpointKind('GET', '/v2/micro-blocks/hash/mh_x/transactions/count')).to.equal('key_block');
    expect(endpointKind('GET', '/v3/key-blocks/height/3')).to.equal('key_block');
    expect(endpointKind('POST', '/v3/debug/transactions/dry-run')).to.equal('dry_run');
    expect(endpointKind('POST', '/v3/transactions')).to.equal('dry_run');
  });

  it('interpolates between the recorded loads and keeps the nearest beyond them', () => {
    const points = NODE_7_2_2.key_block;
    expect(perRequestMs(points, 1)).to.equal(5.51);
    expect(perRequestMs(points, 3)).to.be.closeTo((5.51 + 3.53) / 2, 1e-9);
    expect(perRequestMs(points, 32)).to.equal(8.92);
    expect(perRequestMs(points, 300)).to.equal(8.92);
    // a worker is held for as many answers' time as run beside it: 5 at once at 3.53 ms an answer
    expect(serviceMs(points, 5, 5)).to.be.closeTo(17.65, 1e-9);
    expect(serviceMs(points, 32, 5)).to.be.closeTo(5 * 8.92, 1e-9);
    expect(serviceMs(points, 2, Infinity)).to.be.closeTo(2 * perRequestMs(points, 2), 1e-9);
  });

  it('makes a 5-worker node as slow as the recorded one at 1, 5 and 32 clients (fake clock, within 5 %)', async () => {
    for (const kind of Object.keys(NODE_7_2_2) as EndpointKind[]) {
      for (const r of recorded[RECORDED_KIND[kind]]!) {
        const ms = await closedLoop(NODE_7_2_2[kind], r.concurrency, r.total);
        expect(ms, `${kind} at ${r.concurrency}`).to.be.within(0.95 * r.per_request_ms, 1.05 * r.per_request_ms);
      }
    }
  });
});
