/** @module A node outage under forwarded requests and status readings: every answer 502 with a reason, two log lines in all. */
import { expect } from 'chai';
import { createServer } from 'node:http';
import { Writable } from 'node:stream';
import pino from 'pino';
import prom from 'prom-client';
import { startServer } from '../../../src/api/server.ts';
import { loadConfig } from '../../../src/config.ts';
import { deadEnd } from '../../support/dead-end.ts';
import { createMigratedDatabase } from '../../support/postgres.ts';
import { waitFor } from '../../support/wait.ts';

describe('a node outage as the server logs it', function () {
  this.timeout(60_000);

  it('answers 502 with a reason to each forwarded request, and logs the loss and the return once each, status readings included', async () => {
    const db = await createMigratedDatabase('mdw_node_outage');
    // the node's address, held by the test: down (each connection reset) until it comes back on it
    const node = await deadEnd(createServer((_req, res) => res.end('{"height":5}')));
    const lines: { level: number; msg: string; refused?: number; dependency?: string }[] = [];
    const log = pino(
      { level: 'debug' },
      new Writable({
        write(chunk: Buffer, _enc, done) {
          lines.push(JSON.parse(chunk.toString()) as (typeof lines)[number]);
          done();
        },
      }),
    );
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
        expect(res.status).to.equal(502);
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
});
