import { expect } from 'chai';
import { parseJson } from '../../../src/chain/json.ts';
import {
  ALICE,
  BIG,
  BOB,
  CAROL,
  CHANNEL_CLOSED,
  CHANNEL_OPEN,
  CONTRACT,
  id,
  NAME,
  NAME_HASH,
  ORACLE,
  QUERY_ANSWERED,
  QUERY_OPEN,
} from './fixture.ts';
import { startApi, startFakeNode, type ApiUnderTest, type FakeNode } from './harness.ts';
import { outboundCounts } from '../../support/outbound.ts';

describe('middleware object queries', () => {
  let api: ApiUnderTest;
  let compiler: FakeNode;
  before(async () => {
    compiler = await startFakeNode();
    api = await startApi({ env: { COMPILER_URL: compiler.url } });
  });
  after(async () => {
    await api.close();
    await compiler.close();
  });

  describe('names', () => {
    const expected = (): Record<string, unknown> => ({
      name: NAME,
      name_hash: NAME_HASH,
      tx_hash: id('th', 'claim'),
      created_at_height: 6,
      auction_end_height: 6,
      owner: ALICE,
      expires_at: 7 + 50000,
      pointers: [{ encoded_key: 'ba_YWNjb3VudF9wdWJrZXn8jckR', id: BOB, key: 'account_pubkey' }],
    });
    it('lists all names in the original shape, state from the latest event', async () => {
      await api.request.get('/middleware/names').expect(200, [expected()]);
      await api.request.get(`/middleware/names?owner=${ALICE}`).expect(200, [expected()]);
      await api.request.get(`/middleware/names?owner=${BOB}`).expect(200, []);
    });
    it('lists active names, with reverse accepted', async () => {
      await api.request.get('/middleware/names/active').expect(200, [expected()]);
      await api.request.get('/middleware/names/active?reverse=true&limit=5').expect(200, [expected()]);
    });
    it('searches by part of the name, literally (% and _ are not wildcards)', async () => {
      await api.request.get('/middleware/names/ALICE').expect(200, [expected()]);
      await api.request.get('/middleware/names/%25').expect(200, []);
      await api.request.get('/middleware/names/a_ice').expect(200, []);
    });
    it('finds names pointing at an account (reverse lookup)', async () => {
      await api.request.get(`/middleware/names/reverse/${BOB}`).expect(200, [expected()]);
      await api.request.get(`/middleware/names/reverse/${CAROL}`).expect(200, []);
      await api.request.get('/middleware/names/reverse/ak_nope').expect(400);
      await api.request.get('/middleware/names?owner=nobody').expect(400);
    });
  });

  describe('oracles', () => {
    it('lists registrations with their expiry and transaction', async () => {
      const list = parseJson((await api.request.get('/middleware/oracles/list').expect(200)).text) as Record<
        string,
        unknown
      >[];
      expect(list).to.deep.equal([
        {
          oracle_id: ORACLE,
          transaction_hash: id('th', 'register'),
          block_height: 4,
          expires_at: 504,
          tx: api.fixture.tx('register').tx,
        },
      ]);
    });
    it("lists an oracle's queries with their responses, open queries with null", async () => {
      const res = await api.request.get(`/middleware/oracles/${ORACLE}`).expect(200);
      const queries = parseJson(res.text) as {
        query_id: string;
        request: Record<string, unknown>;
        response: Record<string, unknown> | null;
      }[];
      expect(queries.map((q) => q.query_id)).to.deep.equal([QUERY_ANSWERED, QUERY_OPEN]);
      expect(queries[0]!.request).to.include({
        hash: id('th', 'query-1'),
        timestamp: api.fixture.timeOf(4) + 3000,
        query: 'how much?',
        query_fee: BIG.fee,
      });
      expect(queries[0]!.response).to.include({ hash: id('th', 'respond'), response: '42', type: 'OracleRespondTx' });
      expect(queries[1]!.response).to.equal(null);
      const page2 = await api.request.get(`/middleware/oracles/${ORACLE}?limit=1&page=2`).expect(200);
      expect(page2.body.map((q: { query_id: string }) => q.query_id)).to.deep.equal([QUERY_OPEN]);
    });
    it('answers 404 for an unknown oracle and 400 for a malformed id (no SQL from input)', async () => {
      await api.request.get(`/middleware/oracles/${id('ok', 'unknown')}`).expect(404);
      await api.request.get(`/middleware/oracles/${encodeURIComponent("ok_x' OR '1'='1")}`).expect(400);
      await api.request.get(`/middleware/oracles/${ALICE}`).expect(400);
    });
  });

  describe('contracts', () => {
    it('lists contracts', async () => {
      await api.request
        .get('/middleware/contracts/all')
        .expect(200, [{ contract_id: CONTRACT, transaction_hash: id('th', 'create'), block_height: 2 }]);
    });
    it('lists decoded calls with arguments, call info, return type and value (exact integers)', async () => {
      const res = await api.request.get(`/middleware/contracts/calls/address/${CONTRACT}`).expect(200);
      const calls = parseJson(res.text) as Record<string, unknown>[];
      expect(calls.map((c) => c.transaction_id)).to.deep.equal([id('th', 'create'), id('th', 'call')]);
      expect(calls[1]).to.deep.include({
        contract_id: CONTRACT,
        caller_id: BOB,
        function: 'payout',
        return_type: 'ok',
        call_info_pruned: false,
        arguments: { function: 'payout', arguments: [{ type: 'int', value: BIG.amount }] },
        return_value: { type: 'int', value: BIG.amount },
      });
      expect((calls[1]!.callinfo as Record<string, unknown>).gas_used).to.equal(22150);
    });
    it('lists the create transaction first, then calls', async () => {
      const res = await api.request.get(`/middleware/contracts/transactions/address/${CONTRACT}`).expect(200);
      expect(res.body.transactions.map((t: { hash: string }) => t.hash)).to.deep.equal([
        id('th', 'create'),
        id('th', 'call'),
      ]);
      await api.request.get('/middleware/contracts/transactions/address/xyz').expect(400);
      await api.request.get('/middleware/contracts/calls/address/xyz').expect(400);
    });
    it('reports the compiler version', async () => {
      compiler.respond = (req) =>
        req.url === '/version' ? { status: 200, body: '{"version":"4.2.0"}' } : { status: 404, body: '{}' };
      await api.request.get('/middleware/compilers').expect(200, { compilers: ['4.2.0'] });
      expect((await outboundCounts(api.registry))['compiler version 2xx']).to.equal(1);
    });
    it('verifies a source against the create bytecode', async () => {
      const code = String(api.fixture.tx('create').tx.code);
      let compiled = code;
      compiler.respond = (req) => {
        if (req.url === '/version') return { status: 200, body: '{"version":"4.2.0"}' };
        if (req.url === '/compile' && JSON.parse(req.body).code === 'contract C =')
          return { status: 200, body: JSON.stringify({ bytecode: compiled }) };
        return { status: 400, body: '[{"type":"parse_error","message":"bad"}]' };
      };
      const body = { contract_id: CONTRACT, source: 'contract C =', compiler: '4.2.0' };
      await api.request.post('/middleware/contracts/verify').send(body).expect(200, { verified: true });
      compiled = 'cb_other';
      await api.request.post('/middleware/contracts/verify').send(body).expect(200, { verified: false });
      await api.request
        .post('/middleware/contracts/verify')
        .send({ ...body, source: 'garbage' })
        .expect(200, { error: 'unable to compile the contract' });
      await api.request
        .post('/middleware/contracts/verify')
        .send({ ...body, compiler: '1.0.0' })
        .expect(200, { error: 'invalid compiler version' });
      await api.request
        .post('/middleware/contracts/verify')
        .send({ ...body, contract_id: id('ct', 'none') })
        .expect(404);
      await api.request
        .post('/middleware/contracts/verify')
        .send({ ...body, contract_id: 'ct_bad' })
        .expect(400);
      await api.request.post('/middleware/contracts/verify').send({ source: 1 }).expect(400);
      await api.request
        .post('/middleware/contracts/verify')
        .set('content-type', 'application/json')
        .send('{"broken')
        .expect(400);
    });
    it('answers 502 with a reason when the compiler is down', async () => {
      await compiler.close();
      const res = await api.request.get('/middleware/compilers').expect(502);
      expect(res.body.code).to.equal('MDW_COMPILER_UNAVAILABLE');
      expect((await outboundCounts(api.registry))['compiler version unreachable']).to.equal(1);
    });
  });

  describe('channels', () => {
    it('lists only channels without a closing transaction', async () => {
      await api.request.get('/middleware/channels/active').expect(200, [CHANNEL_OPEN]);
    });
    it("lists a channel's transactions in chain order", async () => {
      const res = await api.request.get(`/middleware/channels/transactions/address/${CHANNEL_CLOSED}`).expect(200);
      expect(res.body.transactions.map((t: { hash: string }) => t.hash)).to.deep.equal([
        id('th', 'channel-1'),
        id('th', 'channel-close'),
      ]);
      await api.request.get(`/middleware/channels/transactions/address/${ALICE}`).expect(400);
    });
  });

  it('answers unknown middleware paths with 404 {"reason"} and never forwards them', async () => {
    const res = await api.request.get('/middleware/nope').expect(404);
    expect(res.body.reason).to.equal('Not found');
    expect(api.node.seen).to.have.length(0);
  });
});

describe('middleware without a compiler', () => {
  it('says so, as the original did', async () => {
    const api = await startApi({ empty: true });
    try {
      await api.request.get('/middleware/compilers').expect(200, { error: 'no compiler available' });
    } finally {
      await api.close();
    }
  });
});
