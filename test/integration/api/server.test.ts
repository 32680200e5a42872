import { expect } from 'chai';
import prom from 'prom-client';
import { createConnection, createServer, type AddressInfo, type Socket } from 'node:net';
import { WebSocket } from 'ws';
import { startServer } from '../../../src/api/server.ts';
import { loadConfig } from '../../../src/config/middleware.ts';
import { createTestDatabase, queryOnce } from '../../support/postgres.ts';
import { silentLog, startFakeNode, type FakeNode } from './harness.ts';

describe('startServer', () => {
  let node: FakeNode;
  let drop: () => Promise<void>;
  let url: string;
  before(async () => {
    node = await startFakeNode();
    const db = await createTestDatabase({ migrated: 'public' });
    drop = db.drop;
    url = db.url;
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

  it('a start that fails part way (the websocket port taken) stops what it had started: its port, listener and pool', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const wsPort = (taken.address() as AddressInfo).port;
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const httpPort = (probe.address() as AddressInfo).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const cfg = loadConfig({
      DATABASE_URL: url,
      NODE_URL: node.url,
      PORT: String(httpPort),
      HTTP_HOST: '127.0.0.1',
      WEBSOCKET_ADDRESS: `127.0.0.1:${wsPort}`,
    });
    const failure = await startServer({ cfg, log: silentLog, registry: new prom.Registry(), version: 't' }).then(
      () => undefined,
      (err: unknown) => err as Error,
    );
    await new Promise<void>((resolve) => taken.close(() => resolve()));
    expect(failure?.message).to.match(/EADDRINUSE/);
    // the HTTP port it had listened on is free again
    await new Promise<void>((resolve, reject) => probe.once('error', reject).listen(httpPort, '127.0.0.1', resolve));
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    // and no connection of its pool (the LISTEN one among them) is left in its database (the servers of other test
    // files, running beside it, have theirs in their own)
    const { rows } = await queryOnce<{ n: number }>(
      url,
      "SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'mdw-server' AND datname = current_database()",
    );
    expect(rows[0]!.n).to.equal(0);
  });

  it("serves ae_mdw's websocket on the HTTP port under /mdw, where a client given the gateway's URL looks", async () => {
    const cfg = loadConfig({ DATABASE_URL: url, NODE_URL: node.url, PORT: '0', WEBSOCKET_ADDRESS: '127.0.0.1:0' });
    const server = await startServer({ cfg, log: silentLog, registry: new prom.Registry(), version: 't' });
    const base = server.httpUrl.replace(/^http/, 'ws');
    try {
      for (const path of ['/mdw/v3/websocket', '/mdw/v2/websocket']) {
        const ws = new WebSocket(`${base}${path}`);
        const reply = new Promise<string>((resolve, reject) => {
          ws.once('message', (data) => resolve(String(data)));
          ws.once('error', reject);
        });
        await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
        ws.send(JSON.stringify({ op: 'Subscribe', payload: 'KeyBlocks' }));
        expect(JSON.parse(await reply), path).to.deep.equal(['KeyBlocks']);
        ws.close();
      }
      // the seed's socket stays on its own port; the HTTP port takes ae_mdw's two paths only
      for (const path of ['/websocket', '/v3/websocket', '/mdw/v4/websocket']) {
        const status = await new Promise<number | undefined>((resolve) => {
          const ws = new WebSocket(`${base}${path}`);
          ws.once('unexpected-response', (_req, res) => resolve(res.statusCode));
          ws.once('open', () => resolve(101));
          ws.once('error', () => resolve(undefined));
        });
        expect(status, path).to.equal(404);
      }
    } finally {
      await server.stop();
    }
  });

  it("counts ae_mdw's sockets on the HTTP port per client behind a trusted proxy (X-Forwarded-For), as an ingress reaches them", async () => {
    const cfg = loadConfig({
      DATABASE_URL: url,
      NODE_URL: node.url,
      PORT: '0',
      WEBSOCKET_ADDRESS: '127.0.0.1:0',
      WEBSOCKET_MDW_MAX_CONNECTIONS_PER_IP: '1',
      TRUSTED_PROXIES: '127.0.0.0/8',
    });
    const server = await startServer({ cfg, log: silentLog, registry: new prom.Registry(), version: 't' });
    const url3 = `${server.httpUrl.replace(/^http/, 'ws')}/mdw/v3/websocket`;
    /** open resolves with the socket once open, or with its close code when the server closed it at once */
    const open = (forwardedFor: string): Promise<{ ws: WebSocket; closed: Promise<number> }> => {
      const ws = new WebSocket(url3, { headers: { 'X-Forwarded-For': forwardedFor } });
      const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
      return new Promise((resolve, reject) => ws.once('open', () => resolve({ ws, closed })).once('error', reject));
    };
    try {
      const first = await open('198.51.100.1');
      const second = await open('198.51.100.2');
      const again = await open('198.51.100.1');
      expect(await again.closed).to.equal(1013);
      first.ws.close();
      second.ws.close();
      await Promise.all([first.closed, second.closed]);
    } finally {
      await server.stop();
    }
  });

  it('closes a socket whose client trickles its headers, within seconds, and leaves idle keep-alive sockets open', async function () {
    this.timeout(30_000);
    const cfg = loadConfig({ DATABASE_URL: url, NODE_URL: node.url, PORT: '0', WEBSOCKET_ADDRESS: '127.0.0.1:0' });
    const server = await startServer({ cfg, log: silentLog, registry: new prom.Registry(), version: 't' });
    const { port } = new URL(server.httpUrl);
    /** connect opens a socket and collects what the server sends until it closes it */
    const connect = async (): Promise<{ socket: Socket; received: () => string; closed: Promise<number> }> => {
      const socket = createConnection({ host: '127.0.0.1', port: Number(port) });
      let text = '';
      socket.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      const opened = performance.now();
      const closed = new Promise<number>((resolve) => socket.once('close', () => resolve(performance.now() - opened)));
      await new Promise((resolve) => socket.once('connect', resolve));
      return { socket, received: () => text, closed };
    };
    try {
      const idle = await connect();
      idle.socket.write('GET /healthz HTTP/1.1\r\nHost: mdw\r\n\r\n');
      const trickling = await connect();
      trickling.socket.write('GET /healthz HTTP/1.1\r\nHost: mdw\r\n'); // and never the end of its headers
      const trickledFor = await trickling.closed;
      expect(trickling.received()).to.match(/^HTTP\/1\.1 408/);
      expect(trickledFor).to.be.within(9_000, 15_000);
      // the idle keep-alive socket, as old as the trickling one, still serves
      idle.socket.write('GET /healthz HTTP/1.1\r\nHost: mdw\r\n\r\n');
      while ((idle.received().match(/HTTP\/1\.1 200/g) ?? []).length < 2) await new Promise((r) => setTimeout(r, 20));
      idle.socket.destroy();
    } finally {
      await server.stop();
    }
  });
});
