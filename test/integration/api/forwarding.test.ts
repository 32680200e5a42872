import { once } from 'node:events';
import { Agent, request, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { outboundCounts } from '../../support/outbound.ts';
import { deadEnd, type DeadEnd } from '../../support/dead-end.ts';
import { waitFor } from '../../support/wait.ts';
import { startApi, startFakeNode, type ApiUnderTest, type FakeNode } from './harness.ts';
import { capturedLog } from '../../support/captured-log.ts';

describe('forwarding to the node', () => {
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
  beforeEach(() => {
    api.node.seen.length = 0;
    internal.seen.length = 0;
    api.node.respond = (req) => ({
      status: 200,
      body: JSON.stringify({ echo: { method: req.method, url: req.url, body: req.body } }),
    });
  });

  it('forwards method, path and query string, and returns the node status, headers and body', async () => {
    api.node.respond = () => ({ status: 404, body: '{"reason":"Account not found"}', headers: { 'x-node': 'yes' } });
    const res = await api.request.get('/v2/accounts/ak_x?int-as-string=true&a=%20b').expect(404);
    expect(res.body).to.deep.equal({ reason: 'Account not found' });
    expect(res.headers['x-node']).to.equal('yes');
    expect(api.node.seen.map((r) => [r.method, r.url])).to.deep.equal([
      ['GET', '/v2/accounts/ak_x?int-as-string=true&a=%20b'],
    ]);
  });

  it('forwards a POST body as sent (big integers untouched) and the node status (not always 200)', async () => {
    const body = '{"tx":"tx_abc","fee":123456789012345678901234567890}';
    api.node.respond = () => ({ status: 400, body: '{"reason":"Invalid tx"}' });
    await api.request
      .post('/v2/transactions')
      .set('content-type', 'application/json')
      .send(body)
      .expect(400, { reason: 'Invalid tx' });
    expect(api.node.seen[0]).to.include({ method: 'POST', url: '/v2/transactions', body });
  });

  it('forwards end-to-end headers but drops hop-by-hop ones', async () => {
    await api.request
      .get('/v2/status')
      .set('x-request-id', 'r1')
      .set('proxy-authorization', 'secret')
      .set('te', 'trailers')
      .expect(200);
    const headers = api.node.seen[0]!.headers;
    expect(headers['x-request-id']).to.equal('r1');
    expect(headers).to.not.have.property('proxy-authorization');
    expect(headers).to.not.have.property('te');
    expect(headers.host).to.equal(new URL(api.node.url).host);
  });

  it("forwards /api (the node's own document)", async () => {
    await api.request.get('/api').expect(200);
    expect(api.node.seen[0]!.url).to.equal('/api');
  });

  it('sends the internal API (debug builders, POST key-blocks) to NODE_INTERNAL_URL only', async () => {
    await api.request.post('/v2/debug/transactions/spend').send({ sender_id: 'ak_x' }).expect(200);
    await api.request.post('/v2/key-blocks').send({ height: 1 }).expect(200);
    await api.request.get('/v2/key-blocks/pending').expect(200);
    expect(internal.seen.map((r) => r.url)).to.deep.equal(['/v2/debug/transactions/spend', '/v2/key-blocks']);
    expect(api.node.seen.map((r) => r.url)).to.deep.equal(['/v2/key-blocks/pending']);
  });

  it("does the same in the node's /v3, where a transaction is posted to the node", async () => {
    await api.request.post('/v3/transactions').send({ tx: 'tx_x' }).expect(200);
    await api.request.post('/v3/debug/transactions/spend').send({ sender_id: 'ak_x' }).expect(200);
    await api.request.post('/v3/key-blocks').send({ height: 1 }).expect(200);
    expect(api.node.seen.map((r) => `${r.method} ${r.url}`)).to.deep.equal(['POST /v3/transactions']);
    expect(internal.seen.map((r) => `${r.method} ${r.url}`)).to.deep.equal([
      'POST /v3/debug/transactions/spend',
      'POST /v3/key-blocks',
    ]);
  });

  it('answers 504 {"reason"} when the node does not answer within NODE_TIMEOUT_MS', async () => {
    api.node.respond = () => 'hang';
    const started = Date.now();
    const res = await api.request.get('/v2/status').expect(504);
    expect(Date.now() - started).to.be.below(3000);
    expect(res.body).to.include({ code: 'MDW_NODE_TIMEOUT' });
    expect(res.body.reason).to.match(/300 ms/);
  });

  it("reads a silent node's mempool as its forwarding: 504 MDW_NODE_TIMEOUT, never a 500, each counted as a timeout", async () => {
    const before = await outboundCounts(api.registry);
    const echo = internal.respond;
    api.node.respond = () => 'hang';
    internal.respond = () => 'hang';
    try {
      await api.request.get('/v2/status').expect(504);
      const pending = await api.request.get('/mdw/v3/transactions/pending').expect(504);
      expect(pending.body.error).to.match(/did not answer .* within 300 ms/);
    } finally {
      internal.respond = echo;
    }
    const after = await outboundCounts(api.registry);
    expect((after['node forward timeout'] ?? 0) - (before['node forward timeout'] ?? 0)).to.equal(1);
    expect((after['node mempool timeout'] ?? 0) - (before['node mempool timeout'] ?? 0)).to.equal(1);
  });

  it('counts forwarded answers and mempool reads by status class', async () => {
    const before = await outboundCounts(api.registry);
    api.node.respond = () => ({ status: 404, body: '{"reason":"Account not found"}' });
    await api.request.get('/v2/accounts/ak_x').expect(404);
    await api.request.get('/mdw/v3/transactions/pending/count').expect(200);
    const after = await outboundCounts(api.registry);
    expect((after['node forward 4xx'] ?? 0) - (before['node forward 4xx'] ?? 0)).to.equal(1);
    expect((after['node mempool 2xx'] ?? 0) - (before['node mempool 2xx'] ?? 0)).to.equal(1);
  });
});

describe("forwarding over a socket: the node's connections all busy, the client's connection", () => {
  const { log, lines } = capturedLog();
  let api: ApiUnderTest;
  let server: Server;
  let base: string;
  before(async () => {
    api = await startApi({ empty: true, env: { NODE_TIMEOUT_MS: '10000' }, log });
    server = api.app.listen(0, '127.0.0.1');
    await once(server, 'listening');
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    server.closeAllConnections();
    server.close();
    await api.close();
  });

  it('queues the request beyond the sockets and forwards it without its hop-by-hop headers, never an uncaught error', async () => {
    // 256 sockets (the agent's per-node limit) held by slow answers; the request after them waits for a socket, by
    // which time its headers are written: they must have been cleaned before
    api.node.respond = (req) => ({ status: 200, body: '{}', delayMs: req.url === '/v2/hold' ? 1500 : 0 });
    const held = Array.from({ length: 256 }, () => fetch(`${base}/v2/hold`).then((r) => r.status));
    while (api.node.seen.length < 256) await new Promise((r) => setTimeout(r, 20));
    // node:http, as fetch sets `Connection` itself
    const queued = request(`${base}/v2/status`, { headers: { connection: 'keep-alive, x-hop', 'x-hop': '1' } }).end();
    const [answer] = (await once(queued, 'response')) as [IncomingMessage];
    answer.resume();
    expect(answer.statusCode).to.equal(200);
    queued.destroy();
    expect(await Promise.all(held)).to.deep.equal(Array.from({ length: 256 }, () => 200));
    const forwarded = api.node.seen.find((r) => r.url === '/v2/status')!;
    expect(forwarded.headers).to.not.have.property('x-hop');
  });

  it('counts a client that hangs up as aborted, and its request as 499 (never 404), and logs no error: every client that leaves would write a stack', async () => {
    const logged = lines.length;
    const seen = api.node.seen.length;
    const aborted = async (): Promise<number> => (await outboundCounts(api.registry))['node forward aborted'] ?? 0;
    const abortedBefore = await aborted();
    const statusesBefore = await forwardedStatuses(api);
    api.node.respond = () => ({ status: 200, body: '{}', delayMs: 500 });
    const clients = Array.from({ length: 5 }, () => {
      const req = request(`${base}/v2/status`).end();
      req.on('error', () => {}); // destroyed below, on purpose
      return req;
    });
    await waitFor('the node to get the forwards', () => api.node.seen.length >= seen + 5);
    for (const req of clients) req.destroy();
    await waitFor('the forwards to be counted', async () => (await aborted()) - abortedBefore === 5);
    const statuses = await forwardedStatuses(api);
    expect((statuses['499'] ?? 0) - (statusesBefore['499'] ?? 0)).to.equal(5);
    expect(statuses['404'] ?? 0).to.equal(statusesBefore['404'] ?? 0);
    // a later forward is answered as usual
    api.node.respond = () => ({ status: 200, body: '{"ok":true}' });
    expect(await (await fetch(`${base}/v2/status`)).json()).to.deep.equal({ ok: true });
    expect(lines.slice(logged).filter((l) => l.level >= 40)).to.deep.equal([]);
  });

  it('closes the connection after the answer when the client asks for it, and keeps it otherwise', async () => {
    api.node.respond = () => ({ status: 200, body: '{}', headers: { connection: 'keep-alive' } });
    const ask = async (connection: string): Promise<{ header?: string; closed: boolean }> => {
      // a keep-alive agent of its own: the client side keeps the socket unless the server closes it
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      const req = request(`${base}/v2/status`, { agent, headers: { connection } }).end();
      const [res] = (await once(req, 'response')) as [IncomingMessage];
      const socket = res.socket;
      res.resume();
      await once(res, 'end');
      // the server closes its side at once after an answer it sent with `close`
      const closed = await Promise.race([
        once(socket, 'close').then(() => true),
        new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 500)),
      ]);
      agent.destroy();
      return { header: res.headers.connection, closed };
    };
    expect(await ask('close')).to.deep.equal({ header: 'close', closed: true });
    expect(await ask('keep-alive')).to.deep.equal({ header: 'keep-alive', closed: false });
  });
});

describe('forwarding with the node down and the internal API off', () => {
  let api: ApiUnderTest;
  let node: DeadEnd;
  before(async () => {
    node = await deadEnd();
    api = await startApi({ empty: true, env: { NODE_URL: node.url } });
  });
  after(async () => {
    await api.close();
    await node.close();
  });

  it('answers 502 {"reason"} when the node refuses the connection', async () => {
    const res = await api.request.get('/v2/status').expect(502);
    expect(res.body).to.deep.equal({ reason: 'the node is unreachable', code: 'MDW_NODE_UNREACHABLE' });
    await api.request.post('/v2/transactions').send({ tx: 'tx_x' }).expect(502);
  });

  it('falls back to the node for an empty database and reports the node as down', async () => {
    await api.request.get('/v2/generations/current').expect(502);
    await api.request.get('/v2/key-blocks/current/height').expect(502);
  });

  it('refuses the internal API by default (a security decision, see docs/api.md)', async () => {
    const res = await api.request.post('/v2/debug/names/claim').send({}).expect(404);
    expect(res.body.reason).to.match(/NODE_INTERNAL_URL/);
    await api.request.post('/v2/key-blocks').send({}).expect(404);
    await api.request.get('/v2/debug/accounts/beneficiary').expect(404);
    for (const path of ['/v3/debug/names/claim', '/v3/key-blocks', '/V3//%64ebug/names/claim'])
      expect((await api.request.post(path).send({}).expect(404)).body.reason, path).to.match(/NODE_INTERNAL_URL/);
  });
});

/** forwardedStatuses counts the requests forwarded to the node's /v2 by the status they are counted under. */
async function forwardedStatuses(api: ApiUnderTest): Promise<Record<string, number>> {
  const counter = api.registry.getSingleMetric('mdw_api_http_requests_total')!;
  const counts: Record<string, number> = {};
  for (const { labels, value } of (await counter.get()).values)
    if (labels.route === '/v2 forwarded') counts[String(labels.status)] = (counts[String(labels.status)] ?? 0) + value;
  return counts;
}
