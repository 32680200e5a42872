import { expect } from 'chai';
import prom from 'prom-client';
import { startServer } from '../../../src/api/server.ts';
import { loadConfig } from '../../../src/config.ts';
import { migrate } from '../../../src/db/migrator.ts';
import { createTestDatabase } from '../../support/postgres.ts';
import { silentLog, startFakeNode, type FakeNode } from './harness.ts';

describe('startServer', () => {
  let node: FakeNode;
  let drop: () => Promise<void>;
  let url: string;
  before(async () => {
    node = await startFakeNode();
    const db = await createTestDatabase();
    drop = db.drop;
    url = db.url;
    await migrate({ databaseUrl: url, schema: 'public' }, silentLog);
  });
  after(async () => {
    await node.close();
    await drop();
  });

  it('serves HTTP and the websocket, and on stop lets an in-flight request finish before closing', async () => {
    const cfg = loadConfig({ DATABASE_URL: url, NODE_URL: node.url, PORT: '0', WEBSOCKET_ADDRESS: '127.0.0.1:0' });
    const server = await startServer({ cfg, log: silentLog, registry: new prom.Registry(), version: 't' });
    expect(server.wsUrl).to.match(/^ws:\/\/127\.0\.0\.1:\d+/);
    expect((await fetch(`${server.httpUrl}/healthz`)).status).to.equal(200);
    node.respond = () => ({ status: 200, body: '{"slow":true}', delayMs: 300 });
    const slow = fetch(`${server.httpUrl}/v2/status`);
    while (node.seen.length === 0) await new Promise((r) => setTimeout(r, 10));
    const stopping = server.stop();
    const res = await slow;
    expect(res.status).to.equal(200);
    expect(await res.json()).to.deep.equal({ slow: true });
    await stopping;
    const refused = await fetch(`${server.httpUrl}/healthz`).then(
      () => false,
      () => true,
    );
    expect(refused).to.equal(true);
  });
});
