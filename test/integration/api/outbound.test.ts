/**
 * @module A node that does not answer reads the same on every path of the server that needs it, forwarded or its
 * own (the mempool behind /mdw/v3/transactions/pending): 502 for no connection, 504 for no answer in time, never a
 * 500; and each request counts in the one outbound metric under its operation and outcome.
 */
import { expect } from 'chai';
import { freePort } from '../../support/postgres.ts';
import { outboundCounts } from '../../support/outbound.ts';
import { startApi, startFakeNode, type ApiUnderTest, type FakeNode } from './harness.ts';

describe('the server asking a node that does not answer', () => {
  describe('a node that refuses the connection', () => {
    let api: ApiUnderTest;
    before(async () => {
      const [external, internal] = [await freePort(), await freePort()];
      api = await startApi({
        empty: true,
        env: { NODE_URL: `http://127.0.0.1:${external}`, NODE_INTERNAL_URL: `http://127.0.0.1:${internal}` },
      });
    });
    after(async () => {
      await api.close();
    });

    it('answers 502 MDW_NODE_UNREACHABLE to a forwarded request and to a read of the mempool alike', async () => {
      const forwarded = await api.request.get('/v2/accounts/ak_x').expect(502);
      expect(forwarded.body).to.deep.equal({ reason: 'the node is unreachable', code: 'MDW_NODE_UNREACHABLE' });
      // ae_mdw's shape, and the node's address (NODE_INTERNAL_URL's above all) is not in it
      for (const path of ['/mdw/v3/transactions/pending', '/mdw/v3/transactions/pending/count']) {
        const res = await api.request.get(path);
        expect(res.status, path).to.equal(502);
        expect(res.body, path).to.deep.equal({ error: 'the node is unreachable' });
      }
      const counts = await outboundCounts(api.registry);
      expect(counts['node forward unreachable']).to.equal(1);
      expect(counts['node mempool unreachable']).to.equal(2);
    });
  });

  describe('a node that stays silent', () => {
    let api: ApiUnderTest;
    let internal: FakeNode;
    before(async () => {
      internal = await startFakeNode();
      api = await startApi({ empty: true, env: { NODE_INTERNAL_URL: internal.url, NODE_TIMEOUT_MS: '300' } });
    });
    after(async () => {
      await api.close();
      await internal.close();
    });

    it('answers 504 MDW_NODE_TIMEOUT to a forwarded request and to a read of the mempool alike', async () => {
      api.node.respond = () => 'hang';
      internal.respond = () => 'hang';
      const forwarded = await api.request.get('/v2/status').expect(504);
      expect(forwarded.body).to.include({ code: 'MDW_NODE_TIMEOUT' });
      const pending = await api.request.get('/mdw/v3/transactions/pending').expect(504);
      expect(pending.body.error).to.match(/did not answer .* within 300 ms/);
      const counts = await outboundCounts(api.registry);
      expect(counts['node forward timeout']).to.equal(1);
      expect(counts['node mempool timeout']).to.equal(1);
    });

    it('counts the answers by status class once the node answers', async () => {
      api.node.respond = () => ({ status: 404, body: '{"reason":"Account not found"}' });
      internal.respond = () => ({ status: 200, body: '{"transactions":[]}' });
      await api.request.get('/v2/accounts/ak_x').expect(404);
      await api.request.get('/mdw/v3/transactions/pending/count').expect(200, '0');
      const counts = await outboundCounts(api.registry);
      expect(counts['node forward 4xx']).to.equal(1);
      expect(counts['node mempool 2xx']).to.equal(1);
    });
  });
});
