import { expect } from 'chai';
import {
  DRY_RUN_TIME_LIMIT_REASON,
  forbidDebug,
  isNodeDebugPath,
  timeLimited,
} from '../../src/devnode/api/endpoint-gates.ts';
import { HttpError, ok, type Route, type RouteRequest } from '../../src/devnode/api/http.ts';
import { dryRunItemMs, NODE_7_2_2 } from '../../src/devnode/api/node-profile.ts';
import { parseJson } from '../../src/chain/json.ts';
import { encode } from '../../src/chain/encoding.ts';
import { decodeSignedTx } from '../../src/chain/tx-parse.ts';
import { readExchanges } from '../support/real-node-recording.ts';
import { startTestNode, type TestNode } from './harness.ts';

/** a contract no chain has (the recording's "unknown contract"): each call is answered contract_does_not_exist */
const NO_CONTRACT = 'ct_5voaFoC8jSgo9upQ6fx8mJx87PFXqkB1L5QUCGjaZca4em8sW';
const calls = (n: number, extra: Record<string, unknown> = {}): unknown => ({
  txs: Array.from({ length: n }, () => ({
    call_req: { contract: NO_CONTRACT, calldata: 'cb_KxGAJGtHPyQFo+I=', abi_version: 3, ...extra },
  })),
});
const INTERNAL_DRY_RUN = '/v3/debug/transactions/dry-run';
const request: RouteRequest = { params: [], query: new URLSearchParams(), body: undefined };

describe('devnode endpoint gates (the node configuration: dry-run group, debug endpoints, dry-run time limit)', () => {
  it('tells the node debug endpoints from the devnode controls', () => {
    expect(isNodeDebugPath('/v3/debug/transactions/dry-run')).to.equal(true);
    expect(isNodeDebugPath('/v2/debug/names/commitment-id')).to.equal(true);
    expect(isNodeDebugPath('/v2/debug/dev/mine')).to.equal(false);
    expect(isNodeDebugPath('/v3/dry-run')).to.equal(false);
    const routes: Route[] = ['/v2/debug/peers', '/v2/debug/dev/fork', '/v2/key-blocks'].map((path) => ({
      method: 'GET',
      path,
      handler: () => ok({}),
    }));
    expect(forbidDebug(routes).map((r) => r.forbidden === true)).to.deep.equal([true, false, false]);
  });

  it('refuses a dry-run that took longer than the limit, and only then', async () => {
    /** a dry-run `ms` long, all but its last `ownMs` of it reading the state (a replay to a past block) when given */
    const busy = (ms: number, ownMs?: number): Route => ({
      method: 'POST',
      path: '/v3/dry-run',
      handler: () => {
        const started = performance.now();
        while (performance.now() < started + ms);
        const stateMs = performance.now() - started - (ownMs ?? 0);
        return { ...ok({ results: [] }), ...(ownMs === undefined ? {} : { stateMs }) };
      },
    });
    const refused = await timeLimited(busy(30), 5).handler(request);
    expect([refused.status, parseJson(refused.body)]).to.deep.equal([400, { reason: DRY_RUN_TIME_LIMIT_REASON }]);
    expect((await timeLimited(busy(1), 1000).handler(request)).status).to.equal(200);
    expect((await timeLimited(busy(30), 0).handler(request)).status, '0: unbounded').to.equal(200);
    // the devnode's replay to a past block is no time of the node's (it reads its state trees there): 60 ms, all but
    // 1 of them reading the state, pass a 30 ms limit; 60 ms, 55 of them its own, do not
    expect((await timeLimited(busy(60, 1), 30).handler(request)).status, 'the state read left out').to.equal(200);
    expect((await timeLimited(busy(60, 55), 30).handler(request)).status, 'the dry-run past the limit').to.equal(400);
  });

  it("counts a paced node's time per item against the limit, and holds the answer for the items past the first", async () => {
    const answers: Route = { method: 'POST', path: '/v3/dry-run', handler: () => ok({ results: [] }) };
    const ofItems = (n: number): RouteRequest => ({ ...request, body: { txs: Array.from({ length: n }, () => ({})) } });
    // 16 ms an item under a 3000 ms limit: 187 items are 2992 ms, 188 are 3008 ms
    const answered = await timeLimited(answers, 3000, 16).handler(ofItems(187));
    expect([answered.status, answered.holdMs]).to.deep.equal([200, 186 * 16]);
    const refused = await timeLimited(answers, 3000, 16).handler(ofItems(188));
    expect([refused.status, parseJson(refused.body)]).to.deep.equal([400, { reason: DRY_RUN_TIME_LIMIT_REASON }]);
    // the node gives it up at the limit: held to it beyond the one item its service time holds
    expect(refused.holdMs).to.equal(3000 - 16);
    expect((await timeLimited(answers, 0, 16).handler(ofItems(1000))).holdMs, '0: unbounded').to.equal(999 * 16);
    expect((await timeLimited(answers, 3000, 16).handler(ofItems(0))).holdMs, 'no items').to.equal(0);
    // a refusal before the items run (the gas cap's 403 among them) is the route's own
    const capped: Route = { ...answers, handler: () => Promise.reject(new HttpError(403, 'Over the gas limit')) };
    const status = await Promise.resolve()
      .then(() => timeLimited(capped, 3000, 16).handler(ofItems(1000)))
      .then(
        () => 'answered past its gas cap',
        (err: HttpError) => err.status,
      );
    expect(status).to.equal(403);
  });

  describe('a devnode paced as the recorded node 7.2.2 (--node-profile 7.2.2, the default 3000 ms limit)', () => {
    let t: TestNode;
    before(async () => {
      t = await startTestNode({ nodeProfile: '7.2.2' });
    });
    after(() => t.node.stop());

    it('answers 100 call_reqs in their time and refuses 1000 at the limit, as the recorded node did', async function () {
      this.timeout(30_000);
      const timed = async (n: number): Promise<{ status: number; text: string; ms: number }> => {
        const started = performance.now();
        const reply = await t.postInternal(INTERNAL_DRY_RUN, calls(n));
        return { status: reply.status, text: reply.text, ms: performance.now() - started };
      };
      const item = dryRunItemMs(NODE_7_2_2);
      const hundred = await timed(100);
      expect(hundred.status).to.equal(200);
      expect(hundred.ms, 'the items past the first take their time').to.be.at.least(99 * item);
      const thousand = await timed(1000);
      expect([thousand.status, thousand.text]).to.deep.equal([
        400,
        JSON.stringify({ reason: DRY_RUN_TIME_LIMIT_REASON }),
      ]);
      // refused at the limit, not at once and not after the 15.9 s the items would take
      expect(thousand.ms).to.be.within(3000 - item, 6000);
      // the external endpoint caps the gas first, whatever the time
      expect((await t.post('/v3/dry-run', calls(1000))).status).to.equal(403);
    });
  });

  describe('a devnode as a node with its defaults of these three (dry-run group off, no debug endpoints)', () => {
    let t: TestNode;
    before(async () => {
      t = await startTestNode({ dryRunEndpoint: false, debugEndpoints: false });
    });
    after(() => t.node.stop());

    it('has no external dry-run (404, no body), as a node without the endpoint group', async () => {
      for (const path of ['/v3/dry-run', '/v2/dry-run']) {
        const reply = await t.post(path, '{"txs":[]}');
        expect(reply.status, path).to.equal(404);
      }
      const v3 = await t.post('/v3/dry-run', '{"txs":[]}');
      expect(v3.text).to.equal('');
    });

    it('answers every node debug endpoint 403 with no body and no content type, whatever the body', async () => {
      for (const [path, body] of [
        [INTERNAL_DRY_RUN, '{"txs":[]}'],
        ['/v2/debug/transactions/dry-run', '{"txs": ['],
        ['/v3/debug/transactions/spend', '{}'],
      ] as const) {
        const res = await fetch(t.node.internalUrl + path, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body,
        });
        expect(res.status, path).to.equal(403);
        expect(res.headers.get('content-type'), path).to.equal(null);
        expect(await res.text(), path).to.equal('');
      }
      for (const path of ['/v3/debug/transactions/pending', '/v2/debug/accounts/beneficiary']) {
        const reply = await t.getInternal(path);
        expect([reply.status, reply.text], path).to.deep.equal([403, '']);
      }
      // a wrong method is refused before the gate, as cowboy_rest does
      expect((await t.getInternal(INTERNAL_DRY_RUN)).status).to.equal(405);
      // the devnode's own controls are no node endpoints
      expect((await t.postInternal('/v2/debug/dev/mine', { key_blocks: 1 })).status).to.equal(200);
    });
  });

  describe('a devnode with the dry-run time limit', () => {
    let t: TestNode;
    before(async () => {
      t = await startTestNode({ dryRunTimeoutMs: 1 });
    });
    after(() => t.node.stop());

    it('refuses a dry-run past it on both endpoints, 400 with the node reason', async () => {
      const internal = await t.postInternal(INTERNAL_DRY_RUN, calls(3000));
      expect(internal.status).to.equal(400);
      expect(internal.text).to.equal('{"reason":"Bad request: dry-run exceeded time limit"}');
      // the external one caps the gas first: 3000 calls of 1 gas pass it
      const external = await t.post('/v3/dry-run', calls(3000, { gas: 1 }));
      expect(external.status).to.equal(400);
      expect(external.body).to.deep.equal({ reason: DRY_RUN_TIME_LIMIT_REASON });
      expect((await t.post('/v3/dry-run', calls(7))).status, 'the gas cap before the time').to.equal(403);
    });
  });

  describe('a devnode with a transaction over the time limit (Devnode.overTimeLimit)', () => {
    const LIMIT_MS = 300;
    let t: TestNode;
    before(async function () {
      this.timeout(60_000);
      t = await startTestNode({
        dryRunTimeoutMs: LIMIT_MS,
        generate: { generations: 12, seed: 'endpoint-gates-heavy', tokenShare: 0.5 },
      });
    });
    after(() => t.node.stop());

    it('gives up every replay that runs it at the limit, as the recorded node gave a dry-run up; others run', async function () {
      this.timeout(60_000);
      const recorded = readExchanges('dry-run.ndjson.gz').find(
        (x) => x.label === '1000 call_reqs (gas limit)' && x.port === 'internal',
      )!;
      // the chain's micro blocks holding two transactions or more, the first of them a contract call
      const blocks = new Map<string, string[]>();
      for (const { blockHash, hash } of t.node.chain.txs.values())
        if (blockHash !== undefined) blocks.set(blockHash, [...(blocks.get(blockHash) ?? []), hash]);
      const typeOf = (hash: string): string => String(t.node.chain.txs.get(hash)!.tx.type);
      const [block, hashes] = [...blocks].find(([, h]) => h.length >= 2 && typeOf(h[0]!) === 'ContractCallTx')!;
      const unsigned = hashes.map((h) => encode('tx', decodeSignedTx(t.node.chain.txs.get(h)!.signedBytes).txBytes));
      const top = (await t.get(`/v3/micro-blocks/hash/${block}/header`)).body.prev_hash as string;
      const replay = (n: number): unknown => ({
        top,
        txs: unsigned.slice(0, n).map((tx) => ({ tx })),
        tx_events: true,
      });
      const ask = async (url: string, n: number): Promise<{ status: number; body: string; headers: object }> => {
        const res = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(replay(n)),
        });
        const headers = { 'content-type': res.headers.get('content-type'), server: res.headers.get('server') };
        return { status: res.status, body: await res.text(), headers };
      };
      const urls = [`${t.node.externalUrl}/v3/dry-run`, `${t.node.internalUrl}${INTERNAL_DRY_RUN}`];
      for (const url of urls) expect((await ask(url, unsigned.length)).status, `${url} before`).to.equal(200);
      t.node.overTimeLimit(hashes[0]!);
      for (const url of urls) {
        // the replay of the call, and of the block past it (the call runs first there), each time they are asked
        for (const n of [1, 1, unsigned.length]) {
          const started = performance.now();
          const answer = await ask(url, n);
          const { status, body, headers } = recorded;
          expect(answer, `${url}, ${n} items`).to.deep.equal({ status, body, headers });
          // given up at the limit, as the node gives it up, not at once
          expect(performance.now() - started, url).to.be.at.least(LIMIT_MS - 20);
        }
      }
      // a dry-run that does not run it is no heavier than before
      expect((await t.post('/v3/dry-run', calls(1))).status).to.equal(200);
      // a call_req made heavy (a token's balances() over a great many holders): the request holding it, whatever else
      t.node.overTimeLimitCall(NO_CONTRACT, 'cb_KxGAJGtHPyQFo+I=');
      const heavyCall = await t.postInternal(INTERNAL_DRY_RUN, calls(3));
      expect([heavyCall.status, heavyCall.text]).to.deep.equal([recorded.status, recorded.body]);
      expect((await t.post('/v3/dry-run', calls(1, { calldata: 'cb_KxGAJGtHPyQFo+K=' }))).status).to.equal(200);
      expect(
        () => t.node.overTimeLimit('th_2fN8dyo5NFuvvGeCnWHaTzJiVoUMnq2MRkyQ3ZZNMaB7Kn1aB5'),
        'no such tx',
      ).to.throw(/no mined transaction/);
    });
  });

  it('runs the same dry-run to its end without the limit (0), and serves both dry-runs by default', async () => {
    const t = await startTestNode({ dryRunTimeoutMs: 0 });
    try {
      const internal = await t.postInternal(INTERNAL_DRY_RUN, calls(3000));
      expect(internal.status).to.equal(200);
      expect(internal.body.results).to.have.length(3000);
      expect((await t.post('/v3/dry-run', '{"txs":[]}')).text).to.equal('{"results":[]}');
    } finally {
      await t.node.stop();
    }
  });
});
