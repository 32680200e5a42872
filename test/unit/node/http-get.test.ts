/**
 * @module httpGet: a base taken apart once, paths under it, one signal aborting every request made under it, the
 * deadline, refused connections, https, and keep-alive connections the server closes: no request fails for them.
 */
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import net, { type AddressInfo } from 'node:net';
import tls from 'node:tls';
import { httpBase, httpGet, HttpGetError, httpPostJson } from '../../../src/node/http-get.ts';
import { deadEnd } from '../../support/dead-end.ts';

/** url is the base URL of a listening server. */
async function listen(server: net.Server, scheme = 'http'): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `${scheme}://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function stop(server: http.Server | net.Server): Promise<void> {
  if (server instanceof http.Server) server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
}

async function rejection(p: Promise<unknown>): Promise<HttpGetError> {
  const outcome = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(outcome).to.be.instanceOf(HttpGetError);
  return outcome as HttpGetError;
}

describe('node/http-get', () => {
  let server: http.Server;
  let base: string;
  const held: http.ServerResponse[] = [];
  before(async () => {
    server = http.createServer((req, res) => {
      if (req.method === 'POST') {
        let body = '';
        req.on('data', (chunk: Buffer) => (body += chunk.toString()));
        req.on('end', () => res.end(JSON.stringify({ path: req.url, type: req.headers['content-type'], body })));
      } else if (req.url?.startsWith('/v2/hold')) held.push(res);
      else if (req.url?.startsWith('/v2/pruned')) {
        res.writeHead(410, { 'content-type': 'application/json' });
        res.end('{"reason":"Garbage collected"}');
      } else res.end(JSON.stringify({ path: req.url }));
    });
    base = await listen(server);
  });
  after(async () => {
    for (const res of held) res.destroy();
    await stop(server);
  });

  it('takes a base URL apart: its origin (IPv6 literals in brackets) and its path without a trailing slash', () => {
    expect(httpBase('http://[::1]:3013/')).to.deep.equal({ origin: 'http://[::1]:3013', path: '' });
    expect(httpBase('https://node.example/api/v2/')).to.deep.equal({ origin: 'https://node.example', path: '/api/v2' });
  });

  it('asks for a path under a base as a URL of the whole would, the query included', async () => {
    const viaBase = await httpGet({ base: httpBase(`${base}/v2/`), path: '/generations/height/7' }, 5000);
    const viaUrl = await httpGet(new URL(`${base}/v2/generations/height/7`), 5000);
    expect(viaBase).to.deep.equal({ status: 200, text: JSON.stringify({ path: '/v2/generations/height/7' }) });
    expect(viaUrl).to.deep.equal(viaBase);
    const query = await httpGet(new URL(`${base}/v2/status?int-as-string`), 5000);
    expect(query.text).to.equal(JSON.stringify({ path: '/v2/status?int-as-string' }));
  });

  it('posts a JSON body (a dry-run) on the same connections', async () => {
    const body = '{"top":"kh_x","txs":[{"call_req":{"amount":12345678901234567890}}]}';
    const answer = await httpPostJson({ base: httpBase(`${base}/v2`), path: '/dry-run' }, body, 5000);
    expect(answer.status).to.equal(200);
    expect(JSON.parse(answer.text)).to.deep.equal({ path: '/v2/dry-run', type: 'application/json', body });
  });

  it('gives an error status and its body as an answer', async () => {
    const pruned = await httpGet({ base: httpBase(`${base}/v2`), path: '/pruned' }, 5000);
    expect(pruned).to.deep.equal({ status: 410, text: '{"reason":"Garbage collected"}' });
  });

  it('aborts every request in flight under a signal when it aborts, and a later one at once', async () => {
    const controller = new AbortController();
    const target = { base: httpBase(`${base}/v2`), path: '/hold' };
    const before = held.length;
    const pending = [1, 2, 3].map(() => rejection(httpGet(target, 5000, { signal: controller.signal })));
    while (held.length < before + 3) await new Promise((r) => setTimeout(r, 10));
    controller.abort();
    for (const outcome of await Promise.all(pending)) expect(outcome.message).to.equal('aborted');
    const late = await rejection(httpGet(target, 5000, { signal: controller.signal }));
    expect(late.message).to.equal('aborted');
  });

  it('gives up on a silent server at the deadline, and the next request is answered', async () => {
    const started = performance.now();
    const err = await rejection(httpGet({ base: httpBase(`${base}/v2`), path: '/hold' }, 100));
    expect(err.timedOut).to.equal(true);
    expect(performance.now() - started).to.be.below(2000);
    expect((await httpGet(new URL(`${base}/v2/after`), 5000)).status).to.equal(200);
  });

  it('says a connection the peer resets is one, not a timeout', async () => {
    const peer = await deadEnd();
    const err = await rejection(httpGet(new URL(`${peer.url}/v2/status`), 5000));
    await peer.close();
    expect(err.timedOut).to.equal(false);
    expect(String((err.cause as Error).message ?? err.message)).to.match(/ECONNRESET/);
  });

  it('reads over https from a server whose certificate the process trusts', async () => {
    const dir = new URL('../../support/tls/', import.meta.url);
    const cert = readFileSync(new URL('localhost.crt', dir), 'utf8');
    const secure = https.createServer({ cert, key: readFileSync(new URL('localhost.key', dir)) }, (req, res) =>
      res.end(JSON.stringify({ secure: true, path: req.url })),
    );
    const url = await listen(secure, 'https');
    const defaults = tls.getCACertificates('default');
    tls.setDefaultCACertificates([...defaults, cert]);
    try {
      const answer = await httpGet({ base: httpBase(`${url}/v2`), path: '/status' }, 5000);
      expect(answer).to.deep.equal({ status: 200, text: JSON.stringify({ secure: true, path: '/v2/status' }) });
    } finally {
      tls.setDefaultCACertificates(defaults);
      await stop(secure);
    }
  });

  it('loses no request to keep-alive connections the server closes when the next request arrives', async () => {
    // a server that answers one request per connection, keeping it open, and closes it without an answer when
    // another request comes on it: the idle close of a real node racing a reused connection, every time
    let closedOnReuse = 0;
    const sockets = new Set<net.Socket>();
    const closing = net.createServer((socket) => {
      sockets.add(socket);
      let answered = false;
      let buffer = '';
      socket.on('data', (chunk: Buffer) => {
        buffer += chunk.toString('latin1');
        if (!buffer.includes('\r\n\r\n')) return;
        if (answered) {
          closedOnReuse++;
          socket.destroy();
          return;
        }
        answered = true;
        const path = /^GET (\S+)/.exec(buffer)?.[1] ?? '';
        buffer = '';
        const body = JSON.stringify({ path });
        socket.write(
          `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n${body}`,
        );
      });
      socket.on('error', () => undefined);
    });
    const url = await listen(closing);
    try {
      const target = httpBase(`${url}/v2`);
      for (let i = 0; i < 5; i++) {
        const answer = await httpGet({ base: target, path: `/one/${i}` }, 5000);
        expect(answer).to.deep.equal({ status: 200, text: JSON.stringify({ path: `/v2/one/${i}` }) });
        await new Promise((r) => setTimeout(r, 5));
      }
      const batch = await Promise.all(
        Array.from({ length: 8 }, (_, i) => httpGet({ base: target, path: `/many/${i}` }, 5000)),
      );
      batch.forEach((answer, i) => expect(answer.text).to.equal(JSON.stringify({ path: `/v2/many/${i}` })));
      // the connections were reused and closed under the requests, and each was sent again on a fresh one
      expect(closedOnReuse).to.be.above(0);
      expect(sockets.size).to.be.at.least(13);
    } finally {
      for (const socket of sockets) socket.destroy();
      await stop(closing);
    }
  });
});
