/** @module The devnode's overload on demand (the 503 of a node whose queue is full) and its X-Ae-Height. */
import { expect } from 'chai';
import pino from 'pino';
import { encode } from '../../src/chain/encoding.ts';
import { startDevnode, type Devnode } from '../../src/devnode/index.ts';

describe('devnode overload and X-Ae-Height', () => {
  let node: Devnode;
  before(async () => {
    node = await startDevnode(
      { port: 0, internalPort: 0, microBlockIntervalMs: 0, keyBlockIntervalMs: 0 },
      pino({ level: 'silent' }),
    );
    await node.mineKeyBlock();
    await node.mineKeyBlock();
  });
  after(async () => {
    await node.stop();
  });

  it('refuses the next N external requests with the node’s 503 and Retry-After, when told through its internal API', async () => {
    const told = await fetch(`${node.internalUrl}/v2/debug/dev/overload`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ requests: 2, retry_after: '3' }),
    });
    expect(await told.json()).to.deep.equal({ refused: 0, remaining: 2 });
    for (let i = 0; i < 2; i++) {
      const refused = await fetch(`${node.externalUrl}/v2/key-blocks/current/height`);
      expect(refused.status).to.equal(503);
      expect(refused.headers.get('retry-after')).to.equal('3');
      expect(await refused.json()).to.deep.equal({ reason: 'Temporary overload' });
    }
    const served = await fetch(`${node.externalUrl}/v2/key-blocks/current/height`);
    expect(served.status).to.equal(200);
    expect(served.headers.get('retry-after')).to.equal(null);
    const stats = await fetch(`${node.internalUrl}/v2/debug/dev/overload`);
    expect(await stats.json()).to.deep.equal({ refused: 2, remaining: 0 });
    // the internal API is not refused: the node's queues are its external API's
    node.overload(1, 'Tue, 24 Nov 2026 20:00:07 GMT');
    expect((await fetch(`${node.internalUrl}/v2/debug/dev/overload`)).status).to.equal(200);
    const dated = await fetch(`${node.externalUrl}/v2/status`);
    expect([dated.status, dated.headers.get('retry-after')]).to.deep.equal([503, 'Tue, 24 Nov 2026 20:00:07 GMT']);
    expect(node.overloadStats()).to.deep.equal({ refused: 3, remaining: 0 });
    // without a Retry-After asked, the node's own: none on 7.2.2, as its regulators' refusals
    node.overload(1);
    const bare = await fetch(`${node.externalUrl}/v3/status`);
    expect([bare.status, bare.headers.get('retry-after'), bare.headers.get('server')]).to.deep.equal([
      503,
      null,
      'Cowboy',
    ]);
    expect(await bare.text()).to.equal('{"reason":"Temporary overload"}');
  });

  it('stamps every answer with its height as X-Ae-Height, errors included, and lets browsers read it', async () => {
    const top = node.height();
    const ok = await fetch(`${node.externalUrl}/v2/key-blocks/height/1`);
    const missing = await fetch(`${node.externalUrl}/v2/transactions/${encode('th', new Uint8Array(32).fill(7))}`);
    expect([ok.status, ok.headers.get('x-ae-height')]).to.deep.equal([200, String(top)]);
    expect([missing.status, missing.headers.get('x-ae-height')]).to.deep.equal([404, String(top)]);
    const cors = await fetch(`${node.externalUrl}/v2/status`, { headers: { origin: 'https://app.example' } });
    expect(cors.headers.get('access-control-expose-headers')).to.equal('retry-after, x-ae-height');
    await node.mineKeyBlock();
    expect((await fetch(`${node.externalUrl}/v2/status`)).headers.get('x-ae-height')).to.equal(String(top + 1));
  });
});
