/**
 * @module Issue 87: a node that refuses requests for load (its 503 `Temporary overload`, without Retry-After on 7.2.2)
 * never reaches a client as it is: every path of the server that forwards to the node answers its own 503
 * MDW_NODE_BUSY with a Retry-After (the node's own, else 3), counted, and logged once when the node starts refusing
 * and once when it stopped.
 */
import { expect } from 'chai';
import prom from 'prom-client';
import { startServer } from '../../../src/api/server.ts';
import { loadConfig } from '../../../src/config/middleware.ts';
import type { Devnode } from '../../../src/devnode/index.ts';
import { capturedLog } from '../../support/captured-log.ts';
import { startGeneratedDevnode } from '../../support/devnode.ts';
import { outboundCounts } from '../../support/outbound.ts';
import { createMigratedDatabase } from '../../support/postgres.ts';
import { waitFor } from '../../support/wait.ts';
import { startApi, startFakeNode } from './harness.ts';
import { deadEnd } from '../../support/dead-end.ts';
import { Aex141Metadata } from '../../../src/api/mdw/resources/aex141-metadata.ts';
import type { Pool } from '../../../src/db/connection/pool.ts';
import { NodeError } from '../../../src/node/errors.ts';
import { createOutboundMetrics } from '../../../src/node/outbound-metrics.ts';

/** the body and headers a client reads of the node's refusal */
const BUSY = { reason: 'the node is busy: retry later', code: 'MDW_NODE_BUSY' };

describe("a node's refusal for load, as the server answers it", function () {
  this.timeout(60_000);
  let devnode: Devnode;
  before(async () => {
    devnode = await startGeneratedDevnode({ generations: 3, seed: 'node-refusals' });
  });
  after(async () => {
    await devnode?.stop();
  });

  it('answers its own 503 with Retry-After, forwarded or served from the node on a miss, and logs the loss and return once', async () => {
    const db = await createMigratedDatabase('mdw_node_refusals');
    const { log, lines } = capturedLog('debug');
    const registry = new prom.Registry();
    const cfg = loadConfig({
      DATABASE_URL: db.url,
      DATABASE_SCHEMA: 'mdw_node_refusals',
      NODE_URL: devnode.externalUrl,
      PORT: '0',
      WEBSOCKET_ADDRESS: '127.0.0.1:0',
    });
    const server = await startServer({ cfg, log, registry, version: 't' });
    try {
      const account = `/v3/accounts/${String(devnode.chain.keyBlocks[1]!.header.beneficiary)}`;
      // the node answers as 7.2.2 does: 503 {"reason":"Temporary overload"}, no Retry-After (test/fixtures/real-node)
      devnode.overload(4, undefined);
      // forwarded (a route the server does not answer), in /v2 and /v3; and a cached route missing in an empty
      // database, which falls back to the node
      for (const path of [account, account.replace('/v3/', '/v2/'), '/v3/key-blocks/current/height', '/v2/status']) {
        const res = await fetch(`${server.httpUrl}${path}`);
        expect(res.status, path).to.equal(503);
        expect(res.headers.get('retry-after'), path).to.equal('3');
        expect(res.headers.get('content-type'), path).to.match(/^application\/json/);
        expect(await res.json(), path).to.deep.equal(BUSY);
      }
      expect(devnode.overloadStats().remaining, 'each was the node’s refusal').to.equal(0);
      // a node that asks for a wait (after 7.2.2) has the client told that wait
      devnode.overload(1, '7');
      const asked = await fetch(`${server.httpUrl}${account}`);
      expect([asked.status, asked.headers.get('retry-after')]).to.deep.equal([503, '7']);
      expect(await asked.json()).to.deep.equal(BUSY);
      // and once it admits requests, its answers pass as they are
      const served = await fetch(`${server.httpUrl}${account}`);
      expect(served.status).to.equal(200);
      expect(served.headers.get('retry-after')).to.equal(null);

      const counts = await outboundCounts(registry);
      expect(counts['node forward 5xx'], 'every refusal counted among the requests to the node').to.equal(5);
      const refused = (await registry.getSingleMetric('mdw_dependency_refused_requests_total')?.get())?.values ?? [];
      expect(refused.find((v) => v.labels.dependency === 'node_capacity')?.value).to.equal(5);
      // one line when it started refusing, one when none was refused for a while: never one per request
      await waitFor('the return logged', () => lines.some((l) => l.msg === 'the node admits requests again'), 20_000);
      const loud = lines.filter((l) => l.level >= 40).map((l) => l.msg);
      expect(loud).to.deep.equal([
        'the node refuses requests for load: answering them 503 with Retry-After while it does',
      ]);
      expect(lines.filter((l) => l.msg === 'the node admits requests again').map((l) => l.refused)).to.deep.equal([5]);
    } finally {
      await server.stop();
      await db.drop();
    }
  });

  it("has an NFT's metadata read fail as the node's refusal or absence, never as a token without metadata", async () => {
    const node = await startFakeNode();
    const down = await deadEnd();
    try {
      const metadata = (url: string): Aex141Metadata =>
        new Aex141Metadata(
          // the collection's code is asked first: a refusal ends the read before the database is
          {} as Pool,
          loadConfig({ NODE_URL: url, DATABASE_URL: 'postgres://x@127.0.0.1/x', NODE_TIMEOUT_MS: '1000' }),
          createOutboundMetrics(new prom.Registry()),
        );
      const id = 'ct_2CDd4Ts1bRk6Qoz2RnUd4p8MXBM9rtgaxCzEFwcFSprtjxcW7o';
      node.respond = () => ({ status: 503, body: '{"reason":"Temporary overload"}', headers: { 'retry-after': '4' } });
      const busy = await metadata(node.url)
        .read(id, '1', null)
        .catch((e: unknown) => e);
      expect(busy).to.be.instanceOf(NodeError).and.include({ code: 'MDW_NODE_BUSY', status: 503, retryAfterMs: 4000 });
      const away = await metadata(down.url)
        .read(id, '1', null)
        .catch((e: unknown) => e);
      expect(away).to.be.instanceOf(NodeError).and.include({ code: 'MDW_NODE_UNREACHABLE', status: 503 });
      // a contract the node does not know has no metadata to give
      node.respond = () => ({ status: 404, body: '{"reason":"Contract not found"}' });
      expect(await metadata(node.url).read(id, '1', null)).to.equal(null);
    } finally {
      await node.close();
      await down.close();
    }
  });

  it("answers the mempool's refusal as its own 503, never as an empty list", async () => {
    const internal = await startFakeNode();
    const api = await startApi({ empty: true, env: { NODE_INTERNAL_URL: internal.url } });
    try {
      internal.respond = () => ({ status: 503, body: '{"reason":"Temporary overload"}' });
      const res = await api.request.get('/mdw/v3/transactions/pending').expect(503);
      expect(res.headers['retry-after']).to.equal('3');
      // ae_mdw's shape
      expect(res.body).to.deep.equal({ error: BUSY.reason });
    } finally {
      await api.close();
      await internal.close();
    }
  });
});
