import { expect } from 'chai';
import { DRY_RUN_GC_REASON, GC_REASON, isCollected, pruneBelow } from '../../src/devnode/api/gc.ts';
import { ok, type Route } from '../../src/devnode/api/http.ts';
import { startTestNode, type TestNode } from './harness.ts';

const GC_HEIGHT = 12;

describe('devnode --gc-height (a pruning node)', () => {
  let t: TestNode;
  before(async () => {
    t = await startTestNode({ generate: { generations: 20, seed: 'gc' }, gcHeight: GC_HEIGHT });
  });
  after(() => t.node.stop());

  const contractTxs = (): { hash: string; height: number }[] =>
    [...t.node.chain.txs.values()]
      .filter((r) => r.callInfo !== undefined && r.blockHeight >= 0)
      .map((r) => ({ hash: r.hash, height: r.blockHeight }));

  it('answers the call info of a transaction mined below H with 410 and the node reason, above H with the info', async () => {
    const below = contractTxs().filter((c) => c.height < GC_HEIGHT);
    const above = contractTxs().filter((c) => c.height >= GC_HEIGHT);
    expect(below.length, 'contract calls below the GC height').to.be.greaterThan(0);
    expect(above.length, 'contract calls at or above the GC height').to.be.greaterThan(0);
    for (const { hash } of below.slice(0, 5)) {
      const reply = await t.get(`/v2/transactions/${hash}/info`);
      expect(reply.status).to.equal(410);
      expect(reply.body).to.deep.equal({ reason: 'State data at the requested height has been garbage-collected' });
    }
    for (const { hash } of above.slice(0, 5)) {
      const reply = await t.get(`/v2/transactions/${hash}/info`);
      expect(reply.status).to.equal(200);
      expect(reply.body.call_info).to.be.an('object');
    }
  });

  it('still serves blocks and transactions below H, and the node errors of unknown hashes', async () => {
    const { hash, height } = contractTxs().find((c) => c.height < GC_HEIGHT)!;
    expect((await t.get(`/v2/transactions/${hash}`)).body.block_height).to.equal(height);
    expect((await t.get(`/v2/generations/height/1`)).status).to.equal(200);
    const unknown = await t.get(`/v2/transactions/th_2FHxDzpQMRTiRfpYRV3eCcsheHr1sjf9waxk7z6JDTVcgqZRXR/info`);
    expect(unknown.status).to.equal(404);
  });

  it("answers a dry-run on top of a block below H as the node's dry-run does (400), on top of a later block as before", async () => {
    const chain = t.node.chain;
    const old = chain.keyBlocks[GC_HEIGHT - 1]!.hash;
    const recent = chain.keyBlocks[GC_HEIGHT]!.hash;
    for (const post of [t.post, t.postInternal]) {
      const path = post === t.post ? '/v2/dry-run' : '/v2/debug/transactions/dry-run';
      const gone = await post(path, { top: old, txs: [] });
      expect(gone.status, path).to.equal(400);
      expect(gone.body).to.deep.equal({ reason: 'Bad request: Block state of given hash was garbage collected' });
      expect((await post(path, { top: recent, txs: [] })).status, path).to.equal(200);
    }
  });

  it('wraps every state read at a block: account at a height or block, token supply, dry-run on top of a block', async () => {
    const chain = t.node.chain;
    const answered = (path: string): Route => ({ method: 'GET', path, handler: () => ok({ answered: path }) });
    const routes = pruneBelow(
      [
        answered('/v2/accounts/:id/height/:height'),
        answered('/v2/accounts/:id/hash/:hash'),
        answered('/v2/debug/token-supply/height/:height'),
        { ...answered('/v2/debug/transactions/dry-run'), method: 'POST' },
        answered('/v2/accounts/:id'),
      ],
      chain,
      GC_HEIGHT,
    );
    const call = async (index: number, params: string[], body?: unknown) => {
      try {
        return (await routes[index]!.handler({ params, query: new URLSearchParams(), body: body as never })).status;
      } catch (err) {
        const e = err as { status: number; body: { reason: string; error_code?: string } };
        expect(e.body.reason).to.equal(e.status === 400 ? DRY_RUN_GC_REASON : GC_REASON);
        return e.status;
      }
    };
    const oldBlock = chain.keyBlocks[GC_HEIGHT - 1]!.hash;
    const newBlock = chain.keyBlocks[GC_HEIGHT]!.hash;
    expect(await call(0, ['ak_x', String(GC_HEIGHT - 1)])).to.equal(410);
    expect(await call(0, ['ak_x', String(GC_HEIGHT)])).to.equal(200);
    expect(await call(1, ['ak_x', oldBlock])).to.equal(410);
    expect(await call(1, ['ak_x', newBlock])).to.equal(200);
    expect(await call(2, ['0'])).to.equal(410);
    expect(await call(3, [], { top: oldBlock, txs: [] })).to.equal(400);
    expect(await call(3, [], { top: newBlock, txs: [] })).to.equal(200);
    expect(await call(3, [], { txs: [] }), 'a dry-run on the top block').to.equal(200);
    expect(await call(4, ['ak_x']), 'current state stays').to.equal(200);
    expect(isCollected(undefined, GC_HEIGHT)).to.equal(false);
  });
});
