import { expect } from 'chai';
import { parseJson, stringifyJson } from '../../../src/chain/json.ts';
import { BIG, EMPTY_HEIGHT, id, TOP } from './fixture.ts';
import { ResponseCache } from '../../../src/api/http/response-cache.ts';
import { startApi, type ApiUnderTest } from './harness.ts';

/** body parses an answer losslessly (supertest's own parse would round big integers). */
function body(res: { text: string }): unknown {
  return parseJson(res.text);
}

// The node answers its /v2 and its /v3 with the same bodies: every query is checked in both.
for (const v of ['v2', 'v3'] as const) {
  describe(`cached /${v} node queries`, () => {
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
        .get(`/${v}/key-blocks/height/5`)
        .expect(200)
        .expect('content-type', /application\/json/);
      expect(body(res)).to.deep.equal(api.fixture.keyBlocks.get(5));
      expect(res.text).to.match(new RegExp(`"nonce": ?${BIG.nonce + 5n}[,}]`));
      expect(api.node.seen).to.have.length(0);
    });

    it('serves a key block by hash', async () => {
      const res = await api.request.get(`/${v}/key-blocks/hash/${api.fixture.keyHash(7)}`).expect(200);
      expect(body(res)).to.deep.equal(api.fixture.keyBlocks.get(7));
    });

    it('serves a generation with its micro block hashes, and an empty one with []', async () => {
      const res = await api.request.get(`/${v}/generations/height/4`).expect(200);
      expect(body(res)).to.deep.equal({
        key_block: api.fixture.keyBlocks.get(4),
        micro_blocks: [api.fixture.microHash(4)],
      });
      const empty = await api.request.get(`/${v}/generations/height/${EMPTY_HEIGHT}`).expect(200);
      expect(body(empty)).to.deep.equal({ key_block: api.fixture.keyBlocks.get(EMPTY_HEIGHT), micro_blocks: [] });
    });

    it('answers "current" from the database top, not the node', async () => {
      const gen = await api.request.get(`/${v}/generations/current`).expect(200);
      expect((body(gen) as { key_block: { height: number } }).key_block.height).to.equal(TOP);
      await api.request.get(`/${v}/key-blocks/current/height`).expect(200, { height: TOP });
      expect(api.node.seen).to.have.length(0);
    });

    it('serves micro block header, transactions in block order and their count', async () => {
      const mh = api.fixture.microHash(4);
      expect(body(await api.request.get(`/${v}/micro-blocks/hash/${mh}/header`).expect(200))).to.deep.equal(
        api.fixture.microBlocks.get(4),
      );
      const txs = body(await api.request.get(`/${v}/micro-blocks/hash/${mh}/transactions`).expect(200)) as {
        transactions: { hash: string }[];
      };
      expect(txs.transactions.map((t) => t.hash)).to.deep.equal([
        id('th', 'register'),
        id('th', 'query-1'),
        id('th', 'query-2'),
      ]);
      await api.request.get(`/${v}/micro-blocks/hash/${mh}/transactions/count`).expect(200, { count: 3 });
    });

    it('serves a transaction in the node GenericSignedTx shape with exact integers', async () => {
      const t = api.fixture.tx('spend-1');
      const res = await api.request.get(`/${v}/transactions/${t.hash}`).expect(200);
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
      const res = await api.request.get(`/${v}/transactions/${id('th', 'ga-meta')}`).expect(200);
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
      const res = await api.request.get(`/${v}/transactions/${pending.hash}?int-as-string=false`).expect(200);
      expect(body(res)).to.deep.equal(pending);
      expect(api.node.seen.map((r) => r.url)).to.deep.equal([`/${v}/transactions/${pending.hash}?int-as-string=false`]);
      api.node.respond = () => ({ status: 404, body: '{"reason":"Chain too short"}' });
      await api.request.get(`/${v}/generations/height/${TOP + 1}`).expect(404, { reason: 'Chain too short' });
      await api.request.get(`/${v}/key-blocks/height/${TOP + 5}`).expect(404, { reason: 'Chain too short' });
      await api.request.get(`/${v}/micro-blocks/hash/${id('mh', 'unknown')}/header`).expect(404);
      await api.request.get(`/${v}/generations/height/99999999999`).expect(404);
      expect(api.node.seen).to.have.length(5);
    });

    it("answers the node's own errors for malformed hashes and heights without asking it", async () => {
      // with safe_decode's error code, as a 7.x node's handlers give it, but for GetKeyBlockByHash, which never does
      await api.request
        .get(`/${v}/transactions/th_notvalid`)
        .expect(400, { reason: 'Invalid hash', error_code: 'invalid_encoding' });
      await api.request.get(`/${v}/key-blocks/hash/${id('mh', 'x')}`).expect(400, { reason: 'Invalid hash' });
      await api.request
        .get(`/${v}/micro-blocks/hash/${id('kh', 'x')}/transactions`)
        .expect(400, { reason: 'Invalid hash', error_code: 'invalid_prefix' });
      const bad = await api.request.get(`/${v}/key-blocks/height/abc`).expect(400);
      expect(bad.body).to.deep.equal({
        reason: 'validation_error',
        parameter: 'height',
        info: { error: 'wrong_type', data: 'abc' },
      });
      const negative = await api.request.get(`/${v}/generations/height/-1`).expect(400);
      expect(negative.body.info.error).to.equal('not_in_range');
      // the node reads the height as an integer first: the range error carries the number, and a sign is allowed
      expect(negative.text).to.contain('"data":-1');
      expect(body(await api.request.get(`/${v}/key-blocks/height/+5`).expect(200))).to.deep.equal(
        api.fixture.keyBlocks.get(5),
      );
      expect(body(await api.request.get(`/${v}/key-blocks/height/-0`).expect(200))).to.deep.equal(
        api.fixture.keyBlocks.get(0),
      );
      expect(api.node.seen).to.have.length(0);
    });

    it('marks answers about blocks deeper than the fork window cacheable, with a working ETag', async () => {
      const deep = await api.request.get(`/${v}/key-blocks/height/3`).expect(200);
      expect(deep.headers['cache-control']).to.contain('immutable');
      expect(deep.headers.etag).to.be.a('string');
      await api.request.get(`/${v}/key-blocks/height/3`).set('If-None-Match', deep.headers.etag!).expect(304);
      const recent = await api.request.get(`/${v}/key-blocks/height/${TOP - 2}`).expect(200);
      expect(recent.headers['cache-control']).to.equal('no-cache');
      expect(recent.headers.etag).to.equal(undefined);
      const current = await api.request.get(`/${v}/key-blocks/current/height`).expect(200);
      expect(current.headers['cache-control']).to.equal('no-cache');
    });
  });
}

/** stringInts is a value with every integer written as its decimal text, as the node's `int-as-string` writes it. */
function stringInts(value: unknown): unknown {
  if (typeof value === 'bigint' || (typeof value === 'number' && Number.isInteger(value))) return String(value);
  if (Array.isArray(value)) return value.map(stringInts);
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, x]) => [k, stringInts(x)]));
  return value;
}

describe("the node's /v3 int-as-string on the cached queries", () => {
  let api: ApiUnderTest;
  // the memory cache on: an answer with strings and one without are two answers
  const cache = new ResponseCache({ maxBytes: 1 << 20 });
  before(async () => {
    api = await startApi({ responseCache: cache });
  });
  after(async () => {
    await api.close();
  });
  beforeEach(() => {
    api.node.seen.length = 0;
  });

  it('writes every integer as a string, big ones to the digit, for true in any case or the bare flag', async () => {
    const t = api.fixture.tx('spend-1');
    for (const flag of ['int-as-string=true', 'int-as-string=TRUE', 'int-as-string', 'a=1&int-as-string=True']) {
      const kb = await api.request.get(`/v3/key-blocks/height/5?${flag}`).expect(200);
      expect(body(kb), flag).to.deep.equal(stringInts(api.fixture.keyBlocks.get(5)));
      expect(kb.text).to.contain(`"nonce":"${BIG.nonce + 5n}"`);
      const tx = await api.request.get(`/v3/transactions/${t.hash}?${flag}`).expect(200);
      expect(tx.text).to.contain(`"amount":"${BIG.amount}"`).and.contain('"block_height":"1"');
    }
    await api.request.get('/v3/key-blocks/current/height?int-as-string=true').expect(200, { height: String(TOP) });
    await api.request
      .get(`/v3/micro-blocks/hash/${api.fixture.microHash(4)}/transactions/count?int-as-string`)
      .expect(200, {
        count: '3',
      });
    expect(api.node.seen).to.have.length(0);
  });

  it('keeps integers as numbers with false, and in /v2, which has no such parameter', async () => {
    for (const path of [
      '/v3/key-blocks/height/5?int-as-string=false',
      '/v3/key-blocks/height/5',
      '/v2/key-blocks/height/5?int-as-string=true',
    ]) {
      const res = await api.request.get(path).expect(200);
      expect(body(res), path).to.deep.equal(api.fixture.keyBlocks.get(5));
    }
  });

  it("refuses any other value with the node's validation error, before it reads the other parameters", async () => {
    for (const path of ['/v3/key-blocks/height/5?int-as-string=yes', '/v3/key-blocks/height/abc?int-as-string=yes']) {
      await api.request.get(path).expect(400, {
        reason: 'validation_error',
        parameter: 'int-as-string',
        info: { error: 'wrong_type', data: 'yes' },
      });
    }
    await api.request
      .get('/v3/transactions/th_bad?int-as-string=')
      .expect(400, { reason: 'validation_error', parameter: 'int-as-string', info: { error: 'wrong_type', data: '' } });
    expect(api.node.seen).to.have.length(0);
  });

  it('keeps the answer with strings and the one without apart in memory', async () => {
    const deep = `/v3/key-blocks/height/3`;
    const before = cache.stats();
    for (let round = 0; round < 2; round++) {
      expect(body(await api.request.get(`${deep}?int-as-string=true`).expect(200))).to.deep.equal(
        stringInts(api.fixture.keyBlocks.get(3)),
      );
      expect(body(await api.request.get(deep).expect(200))).to.deep.equal(api.fixture.keyBlocks.get(3));
      expect(body(await api.request.get(`/v2/key-blocks/height/3?int-as-string=true`).expect(200))).to.deep.equal(
        api.fixture.keyBlocks.get(3),
      );
    }
    const after = cache.stats();
    expect([after.misses - before.misses, after.hits - before.hits]).to.deep.equal([3, 3]);
  });

  it("forwards a query it does not hold with the flag, and the node's answer as it is", async () => {
    api.node.respond = () => ({ status: 404, body: '{"reason":"Block not found"}' });
    await api.request
      .get(`/v3/key-blocks/height/${TOP + 5}?int-as-string=true`)
      .expect(404, { reason: 'Block not found' });
    expect(api.node.seen.map((r) => r.url)).to.deep.equal([`/v3/key-blocks/height/${TOP + 5}?int-as-string=true`]);
  });
});
