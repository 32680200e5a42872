import { expect } from 'chai';
import { createServer } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { OPERATIONS } from '../../../src/api/legacy/legacy-openapi.ts';
import { startApi, type ApiUnderTest } from './harness.ts';

describe('NUL and invalid UTF-8 in a path or query parameter', function () {
  this.timeout(60_000);
  let api: ApiUnderTest;
  before(async () => {
    api = await startApi();
  });
  after(async () => {
    await api.close();
  });

  it('GET /middleware/names/%00 is a 400 with a reason, not a database error', async () => {
    const res = await api.request.get('/middleware/names/%00').expect(400);
    expect(res.body).to.deep.include({ code: 'MDW_API_BAD_REQUEST' });
    expect(res.body.reason).to.match(/NUL/);
  });

  it('every route refuses %00, a lone %FF and an overlong %C0%80 in each path parameter and in the query', async () => {
    const bad = ['%00', 'a%FFb', '%C0%80', '%ED%A0%80'];
    const failures: string[] = [];
    for (const op of OPERATIONS) {
      const urls = bad.flatMap((b) => [
        ...(op.path.includes('{') ? [op.path.replace(/\{[^}]+\}/g, b)] : []),
        `${op.path.replace(/\{[^}]+\}/g, '1')}?limit=1&q=${b}`,
      ]);
      for (const url of urls) {
        const res = op.method === 'post' ? await api.request.post(url).send({}) : await api.request.get(url);
        if (res.status !== 400 || typeof res.body.reason !== 'string') failures.push(`${res.status} ${url}`);
      }
    }
    expect(failures).to.deep.equal([]);
  });

  it('refuses as a name what no name can be, instead of looking up the name the host parser would make of it (issue 27.6)', async () => {
    for (const text of ['a%2Fb', 'a%5Cb', 'a%3Fb', 'a%23b', 'a%09b', 'a%0Ab', 'a%2562']) {
      const res = await api.request.get(`/mdw/v3/names/${text}`).expect(400);
      expect(res.body.error, text).to.equal(`invalid name: ${decodeURIComponent(text)}`);
      const txs = await api.request.get(`/mdw/v3/transactions?name=${text}`).expect(400);
      expect(txs.body.error, text).to.equal(`invalid name: ${decodeURIComponent(text)}`);
    }
  });

  it('refuses them on forwarded paths too, without asking the node', async () => {
    api.node.seen.length = 0;
    await api.request.get('/v2/accounts/%00').expect(400);
    await api.request.get('/v2/names/x?y=%FE').expect(400);
    expect(api.node.seen).to.deep.equal([]);
  });

  it('answers a request target that is no path (`GET *`, `OPTIONS *`) with 400, not with silence', async () => {
    api.node.seen.length = 0;
    const server = createServer(api.app.callback());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      for (const line of ['GET * HTTP/1.1', 'OPTIONS * HTTP/1.1']) {
        // the whole answer: the server closes the connection after it (Connection: close)
        const answer = await new Promise<string>((resolve, reject) => {
          const socket = connect(port, '127.0.0.1');
          let text = '';
          socket.on('data', (chunk) => (text += chunk.toString()));
          socket.on('close', () => resolve(text));
          socket.on('error', reject);
          socket.write(`${line}\r\nHost: x\r\nConnection: close\r\n\r\n`);
        });
        expect(answer, line).to.match(/^HTTP\/1\.1 400 /);
        expect(answer, line).to.include('the request target is not a path');
      }
    } finally {
      server.close();
    }
    expect(api.node.seen).to.deep.equal([]);
  });

  it('lets valid UTF-8 and a stray % through', async () => {
    await api.request.get('/middleware/names/%C3%A9').expect(200, []);
    await api.request.get('/middleware/names/%25').expect(200, []);
    await api.request.get('/middleware/names/active?x=100%').expect(200);
  });
});
