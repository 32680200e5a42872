import { expect } from 'chai';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startApi, type ApiUnderTest } from './harness.ts';

/** rawGet sends a request with exactly these headers (supertest would add its own Connection). */
function rawGet(base: string, path: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(base + path, { headers, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('forwarding: the internal-API guard on normalised paths, hop-by-hop headers, a keep-alive pool', () => {
  let api: ApiUnderTest;
  let server: Server;
  let base: string;
  before(async () => {
    api = await startApi({ empty: true });
    // a real listening server, so the client leg's headers are exactly what the test sends
    server = createServer(api.app.callback());
  });
  after(async () => {
    await api.close();
  });
  beforeEach(() => {
    api.node.seen.length = 0;
  });

  for (const path of [
    '/v2//debug/accounts/beneficiary',
    '/v2/%64ebug/accounts/beneficiary',
    '/v2/Debug/accounts/beneficiary',
    '/V2/DEBUG/accounts/beneficiary',
    '/v2/./debug/accounts/beneficiary',
    '/v2/x/../debug/accounts/beneficiary',
    '/v2%2Fdebug/accounts/beneficiary',
    '/v2/debug%2Faccounts/beneficiary',
  ]) {
    it(`refuses ${path} (NODE_INTERNAL_URL unset) instead of forwarding it to NODE_URL`, async () => {
      const res = await api.request.get(path).expect(404);
      expect(res.body.reason).to.match(/NODE_INTERNAL_URL/);
      expect(api.node.seen).to.deep.equal([]);
    });
  }

  it('refuses POST /v2//key-blocks/ and /v2/Key-Blocks too', async () => {
    await api.request.post('/v2//key-blocks/').send({}).expect(404);
    await api.request.post('/v2/Key-Blocks').send({}).expect(404);
    expect(api.node.seen).to.deep.equal([]);
  });

  it('drops the headers a request names in Connection, and the fixed hop-by-hop ones', async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const status = await rawGet(base, '/v2/status', {
        Connection: 'close, X-Secret-Hop, x-other',
        'X-Secret-Hop': 'token',
        'X-Other': '1',
        'X-End-To-End': 'kept',
        'Keep-Alive': 'timeout=5',
      });
      expect(status).to.equal(200);
      const headers = api.node.seen[0]!.headers;
      expect(headers['x-end-to-end']).to.equal('kept');
      expect(headers).to.not.have.property('x-secret-hop');
      expect(headers).to.not.have.property('x-other');
      expect(headers).to.not.have.property('keep-alive');
      // the client's `close` ends its own connection, not the pooled one to the node
      expect(headers.connection ?? 'keep-alive').to.equal('keep-alive');
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('reads a body whole before it goes to the node: a trickled chunked body arrives as one, a huge one is a 413', async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const post = (write: (req: ReturnType<typeof request>) => void): Promise<number> =>
      new Promise((resolve, reject) => {
        const req = request(
          `${base}/v2/transactions`,
          { method: 'POST', headers: { 'content-type': 'application/json' }, agent: false },
          (res) => {
            res.resume();
            res.on('end', () => resolve(res.statusCode ?? 0));
          },
        );
        req.on('error', reject);
        write(req);
      });
    try {
      // chunked, in pieces: streamed, the node's leg (one of its pooled connections) was held while the client trickled
      const status = await post((req) => {
        req.write('{"tx":');
        setImmediate(() => req.end('"tx_x"}'));
      });
      expect(status).to.equal(200);
      const { headers, body } = api.node.seen[0]!;
      expect(body).to.equal('{"tx":"tx_x"}');
      expect(headers['content-length']).to.equal('13');
      expect(headers).to.not.have.property('transfer-encoding');
      const huge = await post((req) => req.end(Buffer.alloc(8 * 1024 * 1024 + 1, 0x20)));
      expect(huge).to.equal(413);
      expect(api.node.seen).to.have.length(1);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('drops the headers the node names in Connection from its answer', async () => {
    api.node.respond = () => ({
      status: 200,
      body: '{}',
      headers: { connection: 'x-node-hop', 'x-node-hop': 'secret', 'x-node-kept': 'yes' },
    });
    try {
      const res = await api.request.get('/v2/status').expect(200);
      expect(res.headers['x-node-kept']).to.equal('yes');
      expect(res.headers).to.not.have.property('x-node-hop');
    } finally {
      api.node.respond = (req) => ({ status: 200, body: JSON.stringify({ echo: { url: req.url } }) });
    }
  });

  it('reuses connections to the node: 40 forwards in a row open one connection, two bursts of 20 at once at most 20', async () => {
    const before = api.node.connections;
    for (let i = 0; i < 40; i++) await api.request.get(`/v2/accounts/ak_${i}`).expect(200);
    // one, or none when an earlier test left a free connection in the pool
    expect(api.node.connections - before).to.be.at.most(1);
    const burst = api.node.connections;
    await Promise.all(Array.from({ length: 20 }, (_, i) => api.request.get(`/v2/status?i=${i}`).expect(200)));
    expect(api.node.connections - burst).to.be.at.most(20);
    await Promise.all(Array.from({ length: 20 }, (_, i) => api.request.get(`/v2/status?j=${i}`).expect(200)));
    // the second burst finds the first burst's connections free: both together never hold more than 20 at once (the
    // second may reach more of them at once than the first did, so it can open a few, never another 20)
    expect(api.node.connections - burst).to.be.at.most(20);
  });
});
