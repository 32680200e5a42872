/** @module httpGet: a base taken apart once, paths under it, and one signal aborting every request made under it. */
import { expect } from 'chai';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { httpBase, httpGet, HttpGetError } from '../../../src/node/http-get.ts';

describe('node/http-get', () => {
  let server: http.Server;
  let base: string;
  const held: http.ServerResponse[] = [];
  before(async () => {
    server = http.createServer((req, res) => {
      if (req.url?.startsWith('/v2/hold')) held.push(res);
      else res.end(JSON.stringify({ path: req.url }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    for (const res of held) res.destroy();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('takes a base URL apart: IPv6 literals without brackets, the path without a trailing slash', () => {
    expect(httpBase('http://[::1]:3013/')).to.deep.equal({ https: false, hostname: '::1', port: '3013', path: '' });
    expect(httpBase('https://node.example/api/v2/')).to.deep.equal({
      https: true,
      hostname: 'node.example',
      port: '',
      path: '/api/v2',
    });
  });

  it('asks for a path under a base as a URL of the whole would', async () => {
    const viaBase = await httpGet({ base: httpBase(`${base}/v2/`), path: '/generations/height/7' }, 5000);
    const viaUrl = await httpGet(new URL(`${base}/v2/generations/height/7`), 5000);
    expect(viaBase).to.deep.equal({ status: 200, text: JSON.stringify({ path: '/v2/generations/height/7' }) });
    expect(viaUrl).to.deep.equal(viaBase);
  });

  it('aborts every request in flight under a signal when it aborts, and a later one at once', async () => {
    const controller = new AbortController();
    const target = { base: httpBase(`${base}/v2`), path: '/hold' };
    const pending = [1, 2, 3].map(() =>
      httpGet(target, 5000, controller.signal).then(
        () => 'answered',
        (e) => e,
      ),
    );
    while (held.length < 3) await new Promise((r) => setTimeout(r, 10));
    controller.abort();
    for (const outcome of await Promise.all(pending)) {
      expect(outcome).to.be.instanceOf(HttpGetError);
      expect((outcome as HttpGetError).message).to.equal('aborted');
    }
    const late = await httpGet(target, 5000, controller.signal).catch((e: unknown) => e);
    expect((late as HttpGetError).message).to.equal('aborted');
  });
});
