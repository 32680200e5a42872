/**
 * @module The middleware laid out as an æternity gateway (as mainnet.aeternity.io is): the node's API at /v2 and
 * /v3 (cached queries answered, the rest forwarded), ae_mdw's at /mdw/v3, the original at /middleware; and the
 * ROOT_V3=mdw setting of a deployment that served ae_mdw's API at the root /v3.
 */
import { expect } from 'chai';
import { CAROL } from './fixture.ts';
import { startApi, type ApiUnderTest } from './harness.ts';

/** isMdwPage is true for a body in ae_mdw's page shape. */
function isMdwPage(body: unknown): boolean {
  return typeof body === 'object' && body !== null && Array.isArray((body as { data?: unknown }).data);
}

describe('the gateway layout', () => {
  let api: ApiUnderTest;
  before(async () => {
    api = await startApi();
  });
  after(async () => {
    await api.close();
  });
  beforeEach(() => {
    api.node.seen.length = 0;
  });

  it("forwards every /v3 path it does not cache to the node's /v3, with its query, and the node's answer as it is", async () => {
    const paths = [
      '/v3/status',
      '/v3/currency',
      '/v3/accounts/ak_2XiZaAXMXJBD9aLnp3Z8AVnSNpT5yH4bBn97WhzVzQu6L8dqa5?int-as-string=true',
      '/v3/contracts/ct_2mfj3FoZxnhkSw5RZMcP8BfPoB1QR4QiYGNCdkAvLZ1zfF6paW',
      '/v3/key-blocks/current',
    ];
    for (const path of paths) {
      const res = await api.request.get(path).expect(200);
      expect(res.body, path).to.deep.equal({ echo: { method: 'GET', url: path, body: '' } });
    }
    expect(api.node.seen.map((r) => r.url)).to.deep.equal(paths);
  });

  it("gives a path neither we nor the node know the node's own 404, through the proxy", async () => {
    api.node.respond = () => ({ status: 404, body: '{"reason":"Not found"}' });
    await api.request.get('/v3/no-such-thing').expect(404, { reason: 'Not found' });
    expect(api.node.seen.map((r) => r.url)).to.deep.equal(['/v3/no-such-thing']);
    api.node.respond = (req) => ({
      status: 200,
      body: JSON.stringify({ echo: { method: req.method, url: req.url, body: req.body } }),
    });
  });

  it("serves ae_mdw's API at /mdw/v3 only, answering every /mdw path itself (never the node)", async () => {
    const page = await api.request.get('/mdw/v3/key-blocks?limit=1').expect(200);
    expect(isMdwPage(page.body)).to.equal(true);
    expect(page.body.next).to.match(/^\/v3\/key-blocks\?cursor=/);
    expect((await api.request.get('/mdw/v3/api').expect(200)).body.servers).to.deep.equal([{ url: '/mdw/v3' }]);
    for (const path of ['/mdw/v3/nothing', '/mdw/v2/blocks', '/mdw', '/mdw/'])
      await api.request.get(path).expect(404, { error: 'no such route' });
    // the root /v3 is the node's: ae_mdw's lists are not there
    await api.request
      .get('/v3/key-blocks?limit=1')
      .expect(200, { echo: { method: 'GET', url: '/v3/key-blocks?limit=1', body: '' } });
    expect(api.node.seen.map((r) => r.url)).to.deep.equal(['/v3/key-blocks?limit=1']);
  });

  it('refuses another method on a path of /mdw/v3 with 405 and the methods it takes, the webhooks API among them', async () => {
    const refusals = [
      ['post', '/mdw/v3/key-blocks', 'GET, HEAD'],
      ['put', '/mdw/v3/webhooks', 'GET, HEAD, POST'],
      ['post', '/mdw/v3/webhooks/wh_1', 'GET, HEAD, DELETE, PATCH'],
      ['delete', '/mdw/v3/webhooks/wh_1/replay', 'POST'],
    ] as const;
    for (const [method, path, allow] of refusals)
      await api.request[method](path)
        .expect(405, { error: `method not allowed: ${method.toUpperCase()}` })
        .expect('Allow', allow);
    await api.request.post('/mdw/v3/nothing').expect(404, { error: 'no such route' });
    // the webhooks' rows are answered by their handlers: without a key nor WEBHOOKS_ANONYMOUS, a 401 saying why
    const hooks = await api.request.get('/mdw/v3/webhooks').expect(401).expect('Cache-Control', 'no-store');
    expect(hooks.body.error).to.match(/webhooks need an API key/);
    expect(api.node.seen).to.deep.equal([]);
  });

  it('answers a HEAD under /mdw as its GET, without the body: operations, answers from memory, handled routes, exports, GraphQL', async () => {
    const paths = [
      '/mdw/v3/key-blocks?limit=1',
      '/mdw/v3/status',
      '/mdw/v3/webhooks',
      `/mdw/v3/accounts/${CAROL}/transactions/export`,
      '/mdw/graphql?query={__typename}',
      '/mdw/graphiql',
    ];
    for (const path of paths) {
      const get = await api.request.get(path);
      const head = await api.request.head(path);
      expect(head.status, path).to.equal(get.status);
      expect(head.headers['content-type'], path).to.equal(get.headers['content-type']);
      expect(head.text, path).to.equal(undefined);
    }
    // and says so when it refuses another method
    const put = await api.request.put('/mdw/graphql').expect(405);
    expect(put.headers.allow).to.equal('GET, HEAD, POST');
  });

  it('keeps the original API at /middleware and the cached node queries at /v2', async () => {
    await api.request.get('/middleware/status').expect((res) => expect(res.status).to.be.oneOf([200, 503]));
    await api.request.get('/middleware/nothing').expect(404);
    api.node.seen.length = 0; // the status reads the node's height
    await api.request.get('/v2/key-blocks/height/5').expect(200);
    expect(api.node.seen).to.deep.equal([]);
  });
});

describe('ROOT_V3=mdw: a deployment that served ae_mdw at the root /v3', () => {
  let api: ApiUnderTest;
  before(async () => {
    api = await startApi({ env: { ROOT_V3: 'mdw' } });
  });
  after(async () => {
    await api.close();
  });

  it("serves ae_mdw's API at the root /v3 and at /mdw/v3, and forwards nothing under either", async () => {
    for (const base of ['/v3', '/mdw/v3']) {
      expect(isMdwPage((await api.request.get(`${base}/key-blocks?limit=1`).expect(200)).body), base).to.equal(true);
      await api.request.get(`${base}/generations/height/5`).expect(404, { error: 'no such route' });
      expect((await api.request.get(`${base}/api`).expect(200)).body.servers, base).to.deep.equal([{ url: base }]);
    }
    await api.request.get('/v2/key-blocks/height/5').expect(200);
    expect(api.node.seen.filter((r) => !r.url.startsWith('/v2/status'))).to.deep.equal([]);
  });
});
