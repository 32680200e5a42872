/** @module The oracle flow end to end over HTTP with sdk signing: register, query, respond, extend, expiry. */
import { expect } from 'chai';
import { encode } from '../../src/chain/encoding.ts';
import { startTestNode, type TestNode } from './harness.ts';

describe('devnode oracle flow over HTTP', () => {
  let t: TestNode;
  beforeEach(async () => {
    t = await startTestNode();
  });
  afterEach(() => t.node.stop());

  it('registers, answers a query and extends, each visible only after a mined block', async () => {
    const [operator, asker] = t.accounts as [(typeof t.accounts)[0], (typeof t.accounts)[0]];
    const oracleId = operator.address.replace('ak_', 'ok_');
    const register = await t.submit(
      'oracles/register',
      {
        account_id: operator.address,
        query_format: 'string',
        response_format: 'string',
        query_fee: 30,
        oracle_ttl: { type: 'delta', value: 50 },
        fee: 2,
      },
      operator,
    );
    expect(register.status, register.text).to.equal(200);
    expect(register.body.tx_hash).to.match(/^th_/);
    expect((await t.get(`/v2/oracles/${oracleId}`)).body).to.deep.equal({
      reason: 'Oracle not found',
      error_code: 'not_found',
    });
    const pending = await t.getInternal('/v2/debug/transactions/pending');
    expect(pending.body.transactions.map((x: { hash: string }) => x.hash)).to.deep.equal([register.body.tx_hash]);

    const registeredAt = t.node.height();
    await t.node.mineKeyBlock();
    const oracle = await t.get(`/v2/oracles/${oracleId}`);
    expect(oracle.body).to.include({
      id: oracleId,
      query_fee: 30,
      ttl: registeredAt + 50,
      query_format: 'string',
    });

    const query = await t.submit(
      'oracles/query',
      {
        sender_id: asker.address,
        oracle_id: oracleId,
        query: 'how high?',
        query_fee: 30,
        query_ttl: { type: 'delta', value: 10 },
        response_ttl: { type: 'delta', value: 10 },
        fee: 2,
      },
      asker,
    );
    expect(query.status, query.text).to.equal(200);
    const queriedAt = t.node.height();
    await t.node.mineKeyBlock();
    const open = (await t.get(`/v2/oracles/${oracleId}/queries`)).body.oracle_queries;
    expect(open).to.have.length(1);
    expect(open[0]).to.include({
      oracle_id: oracleId,
      sender_id: asker.address,
      fee: 30,
      ttl: queriedAt + 10,
      response: encode('or', new Uint8Array(0)),
      query: encode('ov', Buffer.from('how high?')),
    });

    const respond = await t.submit(
      'oracles/respond',
      {
        query_id: open[0].id,
        response: 'very',
        response_ttl: { type: 'delta', value: 10 },
        fee: 2,
      },
      operator,
    );
    expect(respond.status, respond.text).to.equal(200);
    expect((await t.get(`/v2/oracles/${oracleId}/queries/${open[0].id}`)).body.response).to.equal(
      encode('or', new Uint8Array(0)),
    );
    await t.node.mineKeyBlock();
    const answered = await t.get(`/v2/oracles/${oracleId}/queries/${open[0].id}`);
    expect(answered.body.response).to.equal(encode('or', Buffer.from('very')));
    expect((await t.get(`/v2/oracles/${oracleId}/queries?type=open`)).body.oracle_queries).to.deep.equal([]);

    const extend = await t.submit(
      'oracles/extend',
      { oracle_id: oracleId, oracle_ttl: { type: 'delta', value: 100 }, fee: 1 },
      operator,
    );
    expect(extend.status, extend.text).to.equal(200);
    await t.node.mineKeyBlock();
    expect((await t.get(`/v2/oracles/${oracleId}`)).body.ttl).to.equal(registeredAt + 150);
  });

  it('accepts the seed register path /v2/debug/oracles/oracle and serves the oracle through the generation it ends in', async () => {
    const [operator] = t.accounts as [(typeof t.accounts)[0]];
    const oracleId = operator.address.replace('ak_', 'ok_');
    const register = await t.submit(
      'oracles/oracle',
      {
        account_id: operator.address,
        query_format: 'q',
        response_format: 'r',
        query_fee: 0,
        oracle_ttl: { type: 'delta', value: 3 },
        fee: 2,
        ttl: 0,
      },
      operator,
    );
    expect(register.status, register.text).to.equal(200);
    const registeredAt = t.node.height();
    await t.node.mineKeyBlock();
    expect((await t.get(`/v2/oracles/${oracleId}`)).status).to.equal(200);
    // the node serves it through its ttl's generation: key block ttl + 1 prunes it (aeo_state_tree:prune)
    for (let i = 0; i < 2; i++) await t.node.mineKeyBlock();
    expect(t.node.height()).to.equal(registeredAt + 3);
    expect((await t.get(`/v3/oracles/${oracleId}`)).body).to.include({ id: oracleId, ttl: registeredAt + 3 });
    await t.node.mineKeyBlock();
    expect(await t.get(`/v2/oracles/${oracleId}`))
      .to.include({ status: 404 })
      .and.to.have.deep.property('body', { reason: 'Oracle not found', error_code: 'not_found' });
  });

  it('refunds the query fee when a query expires unanswered', async () => {
    const [operator, asker] = t.accounts as [(typeof t.accounts)[0], (typeof t.accounts)[0]];
    const oracleId = operator.address.replace('ak_', 'ok_');
    await t.submit(
      'oracles/register',
      {
        account_id: operator.address,
        query_format: 'q',
        response_format: 'r',
        query_fee: 1000,
        oracle_ttl: { type: 'delta', value: 100 },
        fee: 2,
      },
      operator,
    );
    await t.node.mineKeyBlock();
    const before = (await t.get(`/v2/accounts/${asker.address}`)).body.balance as bigint;
    const query = await t.submit(
      'oracles/query',
      {
        sender_id: asker.address,
        oracle_id: oracleId,
        query: 'q',
        query_fee: 1000,
        query_ttl: { type: 'delta', value: 2 },
        response_ttl: { type: 'delta', value: 5 },
        fee: 2,
      },
      asker,
    );
    expect(query.status, query.text).to.equal(200);
    await t.node.mineKeyBlock();
    expect((await t.get(`/v2/accounts/${asker.address}`)).body.balance).to.equal(before - 1002n);
    for (let i = 0; i < 3; i++) await t.node.mineKeyBlock();
    expect((await t.get(`/v2/accounts/${asker.address}`)).body.balance).to.equal(before - 2n);
    expect((await t.get(`/v2/oracles/${oracleId}/queries`)).body.oracle_queries).to.deep.equal([]);
  });

  it('refuses fees below the seed minimum and query fees below the oracle fee', async () => {
    const [operator, asker] = t.accounts as [(typeof t.accounts)[0], (typeof t.accounts)[0]];
    const oracleId = operator.address.replace('ak_', 'ok_');
    const tooCheap = await t.submit(
      'oracles/register',
      {
        account_id: operator.address,
        query_format: 'q',
        response_format: 'r',
        query_fee: 50,
        oracle_ttl: { type: 'delta', value: 4500 },
        fee: 5,
      },
      operator,
    );
    expect(tooCheap.status).to.equal(400);
    expect(tooCheap.body.reason).to.match(/^Invalid tx: fee too low.*minimum fee 6/);
    const ok = await t.submit(
      'oracles/register',
      {
        account_id: operator.address,
        query_format: 'q',
        response_format: 'r',
        query_fee: 50,
        oracle_ttl: { type: 'delta', value: 4500 },
        fee: 6,
      },
      operator,
    );
    expect(ok.status, ok.text).to.equal(200);
    await t.node.mineKeyBlock();
    const lowQueryFee = await t.submit(
      'oracles/query',
      {
        sender_id: asker.address,
        oracle_id: oracleId,
        query: 'q',
        query_fee: 49,
        query_ttl: { type: 'delta', value: 10 },
        response_ttl: { type: 'delta', value: 10 },
        fee: 2,
      },
      asker,
    );
    expect(lowQueryFee.status).to.equal(400);
    expect(lowQueryFee.body.reason)
      .to.match(/query_fee_too_low/)
      .and.to.match(/below the oracle's query fee 50/);
  });

  it('answers the node errors for unknown oracles and queries', async () => {
    const [operator] = t.accounts as [(typeof t.accounts)[0]];
    const oracleId = operator.address.replace('ak_', 'ok_');
    expect((await t.get(`/v2/oracles/${oracleId}/queries`)).body).to.deep.equal({ oracle_queries: [] });
    expect((await t.get('/v2/oracles/ok_nope')).body).to.deep.equal({
      reason: 'Invalid public key',
      error_code: 'invalid_encoding',
    });
    const missing = await t.postInternal('/v2/debug/oracles/respond', {
      query_id: encode('oq', Buffer.alloc(32)),
      response: 'x',
      response_ttl: { type: 'delta', value: 1 },
      fee: 2,
    });
    expect(missing)
      .to.include({ status: 404 })
      .and.to.have.deep.property('body', { reason: 'Oracle query for key query_id not found' });
  });
});
