import { expect } from 'chai';
import { parseJson, stringifyJson } from '../../../src/chain/json.ts';
import { BIG, EMPTY_HEIGHT, id, TOP } from './fixture.ts';
import { startApi, type ApiUnderTest } from './harness.ts';

/** body parses an answer losslessly (supertest's own parse would round big integers). */
function body(res: { text: string }): unknown {
  return parseJson(res.text);
}

describe('cached /v2 node queries', () => {
  let api: ApiUnderTest;
  before(async () => {
    api = await startApi();
  });
  after(async () => {
    await api.close();
  });
  beforeEach(() => {
    api.node.seen.length = 0;
  });

  it('serves a key block by height equal to the node object, nonce to the digit', async () => {
    const res = await api.request
      .get('/v2/key-blocks/height/5')
      .expect(200)
      .expect('content-type', /application\/json/);
    expect(body(res)).to.deep.equal(api.fixture.keyBlocks.get(5));
    expect(res.text).to.match(new RegExp(`"nonce": ?${BIG.nonce + 5n}[,}]`));
    expect(api.node.seen).to.have.length(0);
  });

  it('serves a key block by hash', async () => {
    const res = await api.request.get(`/v2/key-blocks/hash/${api.fixture.keyHash(7)}`).expect(200);
    expect(body(res)).to.deep.equal(api.fixture.keyBlocks.get(7));
  });

  it('serves a generation with its micro block hashes, and an empty one with []', async () => {
    const res = await api.request.get('/v2/generations/height/4').expect(200);
    expect(body(res)).to.deep.equal({
      key_block: api.fixture.keyBlocks.get(4),
      micro_blocks: [api.fixture.microHash(4)],
    });
    const empty = await api.request.get(`/v2/generations/height/${EMPTY_HEIGHT}`).expect(200);
    expect(body(empty)).to.deep.equal({ key_block: api.fixture.keyBlocks.get(EMPTY_HEIGHT), micro_blocks: [] });
  });

  it('answers "current" from the database top, not the node', async () => {
    const gen = await api.request.get('/v2/generations/current').expect(200);
    expect((body(gen) as { key_block: { height: number } }).key_block.height).to.equal(TOP);
    await api.request.get('/v2/key-blocks/current/height').expect(200, { height: TOP });
    expect(api.node.seen).to.have.length(0);
  });

  it('serves micro block header, transactions in block order and their count', async () => {
    const mh = api.fixture.microHash(4);
    expect(body(await api.request.get(`/v2/micro-blocks/hash/${mh}/header`).expect(200))).to.deep.equal(
      api.fixture.microBlocks.get(4),
    );
    const txs = body(await api.request.get(`/v2/micro-blocks/hash/${mh}/transactions`).expect(200)) as {
      transactions: { hash: string }[];
    };
    expect(txs.transactions.map((t) => t.hash)).to.deep.equal([
      id('th', 'register'),
      id('th', 'query-1'),
      id('th', 'query-2'),
    ]);
    await api.request.get(`/v2/micro-blocks/hash/${mh}/transactions/count`).expect(200, { count: 3 });
  });

  it('serves a transaction in the node GenericSignedTx shape with exact integers', async () => {
    const t = api.fixture.tx('spend-1');
    const res = await api.request.get(`/v2/transactions/${t.hash}`).expect(200);
    expect(body(res)).to.deep.equal({
      block_height: 1,
      block_hash: api.fixture.microHash(1),
      hash: t.hash,
      signatures: t.signatures,
      tx: t.tx,
    });
    expect(res.text)
      .to.match(new RegExp(`"amount": ?${BIG.amount}[,}]`))
      .and.match(new RegExp(`"fee": ?${BIG.fee}[,}]`));
  });

  it('omits signatures for a GAMetaTx, as the node does', async () => {
    const res = await api.request.get(`/v2/transactions/${id('th', 'ga-meta')}`).expect(200);
    expect(body(res)).to.not.have.property('signatures');
  });

  it('forwards what is not stored and returns the node status and body (e.g. a pending transaction)', async () => {
    const pending = {
      block_height: -1,
      block_hash: 'none',
      hash: id('th', 'pending'),
      signatures: [id('sg', 'p')],
      tx: { type: 'SpendTx', fee: BIG.fee },
    };
    api.node.respond = () => ({ status: 200, body: stringifyJson(pending) });
    const res = await api.request.get(`/v2/transactions/${pending.hash}?int-as-string=false`).expect(200);
    expect(body(res)).to.deep.equal(pending);
    expect(api.node.seen.map((r) => r.url)).to.deep.equal([`/v2/transactions/${pending.hash}?int-as-string=false`]);
    api.node.respond = () => ({ status: 404, body: '{"reason":"Chain too short"}' });
    await api.request.get(`/v2/generations/height/${TOP + 1}`).expect(404, { reason: 'Chain too short' });
    await api.request.get(`/v2/key-blocks/height/${TOP + 5}`).expect(404, { reason: 'Chain too short' });
    await api.request.get(`/v2/micro-blocks/hash/${id('mh', 'unknown')}/header`).expect(404);
    await api.request.get('/v2/generations/height/99999999999').expect(404);
    expect(api.node.seen).to.have.length(5);
  });

  it("answers the node's own errors for malformed hashes and heights without asking it", async () => {
    await api.request.get('/v2/transactions/th_notvalid').expect(400, { reason: 'Invalid hash' });
    await api.request.get(`/v2/key-blocks/hash/${id('mh', 'x')}`).expect(400, { reason: 'Invalid hash' });
    await api.request
      .get(`/v2/micro-blocks/hash/${id('kh', 'x')}/transactions`)
      .expect(400, { reason: 'Invalid hash' });
    const bad = await api.request.get('/v2/key-blocks/height/abc').expect(400);
    expect(bad.body).to.deep.equal({
      reason: 'validation_error',
      parameter: 'height',
      info: { error: 'wrong_type', data: 'abc' },
    });
    const negative = await api.request.get('/v2/generations/height/-1').expect(400);
    expect(negative.body.info.error).to.equal('not_in_range');
    expect(api.node.seen).to.have.length(0);
  });

  it('marks answers about blocks deeper than the fork window cacheable, with a working ETag', async () => {
    const deep = await api.request.get('/v2/key-blocks/height/3').expect(200);
    expect(deep.headers['cache-control']).to.contain('immutable');
    expect(deep.headers.etag).to.be.a('string');
    await api.request.get('/v2/key-blocks/height/3').set('If-None-Match', deep.headers.etag!).expect(304);
    const recent = await api.request.get(`/v2/key-blocks/height/${TOP - 2}`).expect(200);
    expect(recent.headers['cache-control']).to.equal('no-cache');
    expect(recent.headers.etag).to.equal(undefined);
    const current = await api.request.get('/v2/key-blocks/current/height').expect(200);
    expect(current.headers['cache-control']).to.equal('no-cache');
  });
});
