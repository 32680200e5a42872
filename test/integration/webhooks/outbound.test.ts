/**
 * @module A delivery's POST (webhooks/outbound.ts) against a loopback receiver: deliveries share a kept connection,
 * and one the receiver closed while it idled is replaced, never a failed delivery.
 */
import { expect } from 'chai';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { postDelivery, Receivers, type OutboundLimits } from '../../../src/webhooks/outbound.ts';

const LIMITS: OutboundLimits = { timeoutMs: 5000, maxResponseBytes: 1024, allowPrivate: true };

describe('a delivery POST over kept connections (webhooks/outbound.ts)', () => {
  let server: Server;
  let url: URL;
  let connections = 0;
  const bodies: string[] = [];
  const receivers = new Receivers(4);

  before(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        bodies.push(body);
        res.end('ok');
      });
    });
    server.on('connection', () => connections++);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`);
  });
  after(async () => {
    receivers.close();
    await new Promise((resolve) => server.close(resolve));
  });

  it('sends one delivery after another over one connection', async () => {
    const before = connections;
    for (let i = 0; i < 5; i++)
      expect(await postDelivery(url, `{"n":${i}}`, {}, LIMITS, receivers)).to.deep.equal({ ok: true, status: 200 });
    expect(bodies.slice(-5)).to.deep.equal([0, 1, 2, 3, 4].map((i) => `{"n":${i}}`));
    expect(connections - before).to.equal(1);
  });

  it('sends a delivery on a new connection when the receiver closed the idle one', async () => {
    // a receiver that keeps an idle connection 50 ms, far under the sender's own idle time
    server.keepAliveTimeout = 50;
    expect((await postDelivery(url, '{"a":1}', {}, LIMITS, receivers)).ok).to.equal(true);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const before = connections;
    expect(await postDelivery(url, '{"a":2}', {}, LIMITS, receivers)).to.deep.equal({ ok: true, status: 200 });
    expect(bodies.at(-1)).to.equal('{"a":2}');
    expect(connections - before).to.equal(1);
  });
});
