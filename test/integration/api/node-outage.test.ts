/** @module A node outage under forwarded requests and status readings: every answer 503 with a reason, two log lines in all. */
import { expect } from 'chai';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import prom from 'prom-client';
import { startServer } from '../../../src/api/server.ts';
import { loadConfig } from '../../../src/config/middleware.ts';
import { deadEnd } from '../../support/dead-end.ts';
import { createMigratedDatabase } from '../../support/postgres.ts';
import { waitFor } from '../../support/wait.ts';
import { capturedLog } from '../../support/captured-log.ts';
import { startFaultProxy } from '../indexer/support/fault-proxy.ts';

describe('a node outage as the server logs it', function () {
  this.timeout(60_000);

  it('answers 503 with a reason to each forwarded request, and logs the loss and the return once each, status readings included', async () => {
    const db = await createMigratedDatabase('mdw_node_outage');
    // the node's address, held by the test: down (each connection reset) until it comes back on it
    const node = await deadEnd(createServer((_req, res) => res.end('{"height":5}')));
    const { log, lines } = capturedLog('debug');
    const cfg = loadConfig({
      DATABASE_URL: db.url,
      DATABASE_SCHEMA: 'mdw_node_outage',
      NODE_URL: node.url,
      PORT: '0',
      WEBSOCKET_ADDRESS: '127.0.0.1:0',
      NODE_TIMEOUT_MS: '1000',
    });
    const server = await startServer({ cfg, log, registry: new prom.Registry(), version: 't' });
    try {
      // the node is down: every forwarded request fails
      for (let i = 0; i < 30; i++) {
        const res = await fetch(`${server.httpUrl}/v2/accounts/ak_x`);
        expect(res.status).to.equal(503);
        expect(await res.json()).to.deep.equal({ reason: 'the node is unreachable', code: 'MDW_NODE_UNREACHABLE' });
        // the status reads the node's height too: its failures are the same outage, not another log line
        const status = await fetch(`${server.httpUrl}/middleware/status`);
        expect(status.status).to.equal(503);
        expect(await status.json()).to.include({ node_height: null });
      }
      node.open();
      await waitFor('the node to be found again', () => lines.some((l) => l.msg === 'node available again'), 20_000);
      const loud = lines.filter((l) => l.level >= 40);
      expect(loud.map((l) => l.msg)).to.deep.equal(['node unavailable: refusing what needs it until it is back']);
      const back = lines.filter((l) => l.msg === 'node available again');
      expect(back).to.have.length(1);
      expect(back[0]!.refused).to.equal(30);
      // the node's height is read again once it is back
      await waitFor('the status to read the node', async () => {
        const status = (await (await fetch(`${server.httpUrl}/middleware/status`)).json()) as { node_height: unknown };
        return status.node_height === 5;
      });
    } finally {
      await server.stop();
      await node.close();
      await db.drop();
    }
  });

  // issue 59: the status waited for the node's answer in every reading, 5 s each while the node hung
  it('answers /mdw/v3/status and GraphQL status from what it knows while the node hangs, saying it is unreachable', async () => {
    const db = await createMigratedDatabase('mdw_node_hangs');
    const asked: string[] = [];
    // a node that takes every connection and never answers: only a timeout would end a request to it
    const node = createServer((req) => asked.push(req.url ?? ''));
    await new Promise<void>((resolve) => node.listen(0, '127.0.0.1', resolve));
    const cfg = loadConfig({
      DATABASE_URL: db.url,
      DATABASE_SCHEMA: 'mdw_node_hangs',
      NODE_URL: `http://127.0.0.1:${(node.address() as AddressInfo).port}`,
      PORT: '0',
      WEBSOCKET_ADDRESS: '127.0.0.1:0',
      NODE_TIMEOUT_MS: '600000',
    });
    const registry = new prom.Registry();
    const server = await startServer({ cfg, log: pino({ level: 'silent' }), registry, version: 't' });
    try {
      const answers = 8;
      for (let i = 0; i < answers; i++) {
        const res = await fetch(`${server.httpUrl}/mdw/v3/status`);
        expect(res.status).to.equal(200);
        expect(await res.json()).to.include({ mdw_node_reachable: false, node_version: '' });
        const graphql = await fetch(`${server.httpUrl}/mdw/graphql`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ query: '{ status { mdwHeight nodeHeight } }' }),
        });
        expect(graphql.status, await graphql.clone().text()).to.equal(200);
        expect(((await graphql.json()) as { errors?: unknown }).errors).to.equal(undefined);
        await new Promise((resolve) => setTimeout(resolve, 1000)); // each time a new reading (a second at most old)
      }
      // the node was asked by the first reading and by the outage's probe, not by each reading after the first
      expect(asked.filter((url) => url === '/v2/status').length).to.be.below(answers);
      const shed = (await registry.getSingleMetric('mdw_api_shed_requests_total')?.get())?.values ?? [];
      expect(
        shed.reduce((n, v) => n + v.value, 0),
        'no answer refused as overload',
      ).to.equal(0);
    } finally {
      await server.stop();
      node.closeAllConnections();
      node.close();
      await db.drop();
    }
  });

  // issue 79: the first /mdw/v3/status after the node hung took 2 s, and /middleware/status 2 s on every read
  it('answers both statuses at once while the node hangs, saying it is unreachable, and reads the node again when it answers', async () => {
    const db = await createMigratedDatabase('mdw_node_hung');
    const node = createServer((_req, res) => res.end('{"height":5,"top_block_height":5,"node_version":"7.3.0"}'));
    await new Promise<void>((resolve) => node.listen(0, '127.0.0.1', resolve));
    const proxy = await startFaultProxy(`http://127.0.0.1:${(node.address() as AddressInfo).port}`);
    const cfg = loadConfig({
      DATABASE_URL: db.url,
      DATABASE_SCHEMA: 'mdw_node_hung',
      NODE_URL: proxy.url,
      PORT: '0',
      WEBSOCKET_ADDRESS: '127.0.0.1:0',
      NODE_TIMEOUT_MS: '600000',
    });
    const server = await startServer({
      cfg,
      log: pino({ level: 'silent' }),
      registry: new prom.Registry(),
      version: 't',
    });
    const timed = async (path: string): Promise<{ ms: number; status: number; body: Record<string, unknown> }> => {
      const t0 = performance.now();
      const res = await fetch(`${server.httpUrl}${path}`);
      const body = (await res.json()) as Record<string, unknown>;
      return { ms: performance.now() - t0, status: res.status, body };
    };
    try {
      expect((await timed('/mdw/v3/status')).body).to.include({ mdw_node_reachable: true, node_version: '7.3.0' });
      expect((await timed('/middleware/status')).body).to.include({ node_height: 5 });
      await new Promise((resolve) => setTimeout(resolve, 1100)); // the readings above are a second old: read again
      proxy.hang(/./);
      // each round a new reading of each status (a second apart): every one answered well within a probe's 1 s
      for (let round = 0; round < 4; round++) {
        const [v3, legacy] = await Promise.all([timed('/mdw/v3/status'), timed('/middleware/status')]);
        expect(v3.status).to.equal(200);
        expect(v3.body).to.include({ mdw_node_reachable: false, node_version: '' });
        expect(legacy.status).to.equal(503);
        expect(legacy.body).to.include({ node_height: null });
        expect(v3.ms, `round ${round}: /mdw/v3/status in ${Math.round(v3.ms)} ms`).to.be.below(1000);
        expect(legacy.ms, `round ${round}: /middleware/status in ${Math.round(legacy.ms)} ms`).to.be.below(1000);
        await new Promise((resolve) => setTimeout(resolve, 1100));
      }
      // the node answers again: its answer comes to both statuses by itself (the readings behind, the outage's probe)
      proxy.hang(undefined);
      await waitFor(
        'both statuses to read the node again',
        async () =>
          (await timed('/mdw/v3/status')).body.mdw_node_reachable === true &&
          (await timed('/middleware/status')).body.node_height === 5,
        20_000,
      );
    } finally {
      await server.stop();
      await proxy.close();
      node.closeAllConnections();
      node.close();
      await db.drop();
    }
  });
});
