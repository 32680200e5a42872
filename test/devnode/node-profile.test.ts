/**
 * @module `--node-profile 7.2.2`: service times calibrated from a real node's (test/fixtures/real-node/overload.json),
 * checked on a fake clock: c clients asking one after another of a 5-worker node (the regulator itself, each request
 * holding its worker for the profile's time) take the recorded wall time per answer at c = 1, 5 and 32.
 */
import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { DEFAULT_DRY_RUN_TIMEOUT_MS, DRY_RUN_TIME_LIMIT_REASON } from '../../src/devnode/api/endpoint-gates.ts';
import {
  dryRunItemMs,
  endpointKind,
  NODE_7_2_2,
  perRequestMs,
  serviceMs,
  type Calibration,
  type EndpointKind,
} from '../../src/devnode/api/node-profile.ts';
import { HTTP_READ, Regulator } from '../../src/devnode/api/regulator.ts';
import { readExchanges } from '../support/real-node-recording.ts';

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

  it("fits a dry-run item's time to the recorded times, inside the bracket the recorded time limit gives", () => {
    // one client's dry-run of one spend, less its key block read: the item's own time
    const [dryRun] = recorded.dry_run_1_spend_tx_events!;
    const [keyBlock] = recorded.key_block!;
    expect(dryRunItemMs(NODE_7_2_2)).to.be.closeTo(dryRun!.per_request_ms - keyBlock!.per_request_ms, 1e-9);
    // the internal endpoint's `N call_reqs` (no gas cap there): answered up to some N, refused by the limit beyond
    const byCount = readExchanges('dry-run.ndjson.gz')
      .filter((x) => x.port === 'internal' && / call_reqs \(gas limit\)$/.test(x.label ?? ''))
      .map((x) => ({ n: parseInt(x.label!, 10), status: x.status, body: x.body }));
    const answered = Math.max(...byCount.filter((x) => x.status === 200).map((x) => x.n));
    const refused = byCount.filter((x) => x.status !== 200);
    expect(refused.map((x) => [x.n, x.status, x.body])).to.deep.equal([
      [1000, 400, JSON.stringify({ reason: DRY_RUN_TIME_LIMIT_REASON })],
    ]);
    expect([answered, DEFAULT_DRY_RUN_TIMEOUT_MS]).to.deep.equal([100, 3000]);
    // so a call_req takes at most 3000 / 100 = 30 ms and more than 3000 / 1000 = 3 ms
    expect(answered * dryRunItemMs(NODE_7_2_2)).to.be.at.most(DEFAULT_DRY_RUN_TIMEOUT_MS);
    expect(refused[0]!.n * dryRunItemMs(NODE_7_2_2)).to.be.greaterThan(DEFAULT_DRY_RUN_TIMEOUT_MS);
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
