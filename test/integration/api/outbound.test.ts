/**
 * @module A node that refuses the connection reads the same on every path of the server that needs it, forwarded or
 * its own (the mempool behind /mdw/v3/transactions/pending): 503 MDW_NODE_UNREACHABLE, never a 500; each request
 * counted in the one outbound metric under its operation. A silent node (504): forwarding.test.ts.
 */
import { expect } from 'chai';
import { deadEnd, type DeadEnd } from '../../support/dead-end.ts';
import { outboundCounts } from '../../support/outbound.ts';
import { startApi, type ApiUnderTest } from './harness.ts';

describe('the server asking a node that refuses the connection', () => {
  let api: ApiUnderTest;
  let nodes: DeadEnd[];
  before(async () => {
    nodes = [await deadEnd(), await deadEnd()];
    api = await startApi({ empty: true, env: { NODE_URL: nodes[0]!.url, NODE_INTERNAL_URL: nodes[1]!.url } });
  });
  after(async () => {
    await api.close();
    for (const node of nodes) await node.close();
  });

  it('answers 503 MDW_NODE_UNREACHABLE to a forwarded request and to a read of the mempool alike', async () => {
    const forwarded = await api.request.get('/v2/accounts/ak_x').expect(503);
    expect(forwarded.body).to.deep.equal({ reason: 'the node is unreachable', code: 'MDW_NODE_UNREACHABLE' });
    // ae_mdw's shape, and the node's address (NODE_INTERNAL_URL's above all) is not in it
    for (const path of ['/mdw/v3/transactions/pending', '/mdw/v3/transactions/pending/count']) {
      const res = await api.request.get(path);
      expect(res.status, path).to.equal(503);
      expect(res.body, path).to.deep.equal({ error: 'the node is unreachable' });
    }
    const counts = await outboundCounts(api.registry);
    expect(counts['node forward unreachable']).to.equal(1);
    expect(counts['node mempool unreachable']).to.equal(2);
  });
});
