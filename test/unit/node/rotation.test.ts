/** @module Node failover: the pure selection order, and NodeClient moving between two local HTTP servers. */
import { expect } from 'chai';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { NodeClient } from '../../../src/node/client.ts';
import { NodeError } from '../../../src/node/errors.ts';
import { NodeRotation } from '../../../src/node/rotation.ts';
import { freePort } from '../../support/postgres.ts';

const log = pino({ level: 'silent' });

describe('NodeRotation', () => {
  it('starts with the first node and tries the others in configured order', () => {
    const r = new NodeRotation(['http://a/', 'http://b', 'http://c']);
    expect(r.urls).to.deep.equal(['http://a', 'http://b', 'http://c']);
    expect(r.order()).to.deep.equal([0, 1, 2]);
  });

  it('sticks to the node that last answered and wraps around after it', () => {
    const r = new NodeRotation(['http://a', 'http://b', 'http://c']);
    r.answered(2);
    expect(r.current).to.equal(2);
    expect(r.order()).to.deep.equal([2, 0, 1]);
    r.answered(0);
    expect(r.order()).to.deep.equal([0, 1, 2]);
  });

  it('refuses an empty node list', () => {
    expect(() => new NodeRotation([])).to.throw(TypeError);
  });
});

describe('NodeClient with several nodes', () => {
  type Answer = { status: number; body: string } | 'drop';
  const servers: Server[] = [];
  const answers: Answer[] = [
    { status: 200, body: '{"height":1}' },
    { status: 200, body: '{"height":2}' },
  ];
  const hits = [0, 0];
  let urls: string[];

  before(async () => {
    urls = await Promise.all(
      [0, 1].map(async (i) => {
        const server = createServer((req, res) => {
          hits[i]!++;
          const answer = answers[i]!;
          if (answer === 'drop') return req.socket.destroy();
          res.writeHead(answer.status, { 'content-type': 'application/json' });
          res.end(answer.body);
        });
        servers.push(server);
        await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
        return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      }),
    );
  });
  after(() =>
    servers.forEach((s) => {
      s.closeAllConnections();
      s.close();
    }),
  );
  beforeEach(() => {
    answers[0] = { status: 200, body: '{"height":1}' };
    answers[1] = { status: 200, body: '{"height":2}' };
    hits.fill(0);
  });

  const client = (url: NodeClientUrl, attempts = 2): NodeClient =>
    new NodeClient({ url, timeoutMs: 500, attempts, backoffInitialMs: 5, backoffMaxMs: 10 }, log);
  type NodeClientUrl = ConstructorParameters<typeof NodeClient>[0]['url'];

  for (const [what, answer] of [
    ['a 503', { status: 503, body: '{"reason":"overload"}' }],
    ['a dropped connection', 'drop'],
  ] as const) {
    it(`moves to the next node on ${what} and stays there`, async () => {
      answers[0] = answer;
      const c = client(urls);
      expect(await c.topHeight()).to.equal(2);
      answers[0] = { status: 200, body: '{"height":1}' };
      expect(await c.topHeight()).to.equal(2);
      expect(hits).to.deep.equal([1, 2]);
    });
  }

  it('moves on when a node is not listening at all', async () => {
    const c = client([`http://127.0.0.1:${await freePort()}`, urls[1]!]);
    expect(await c.topHeight()).to.equal(2);
  });

  it('does not fail over on a 404 (every node would say the same)', async () => {
    answers[0] = { status: 404, body: '{"reason":"Block not found"}' };
    try {
      await client(urls).keyBlock(99);
      expect.fail('should throw');
    } catch (err) {
      expect((err as NodeError).notFound).to.equal(true);
    }
    expect(hits).to.deep.equal([1, 0]);
  });

  const GONE = { status: 410, body: '{"reason":"State data at the requested height has been garbage-collected"}' };

  it('asks the next node when one has garbage-collected the state (410)', async () => {
    answers[0] = GONE;
    expect(await client(urls).topHeight()).to.equal(2);
    expect(hits).to.deep.equal([1, 1]);
  });

  it('gives the 410 at once, without backing off, when every node has pruned the state', async () => {
    answers[0] = GONE;
    answers[1] = GONE;
    try {
      await client(urls, 3).topHeight();
      expect.fail('should throw');
    } catch (err) {
      expect((err as NodeError).gone).to.equal(true);
    }
    expect(hits).to.deep.equal([1, 1]);
  });

  it('keeps trying a node that is down while another has pruned the state, and ends with the 410', async () => {
    answers[0] = GONE;
    answers[1] = 'drop';
    try {
      await client(urls, 3).topHeight();
      expect.fail('should throw');
    } catch (err) {
      expect((err as NodeError).gone).to.equal(true);
    }
    expect(hits).to.deep.equal([3, 3]);
  });

  it('backs off and tries every node again when all fail, up to its attempts', async () => {
    answers[0] = 'drop';
    answers[1] = { status: 500, body: '{"reason":"down"}' };
    try {
      await client(urls, 3).topHeight();
      expect.fail('should throw');
    } catch (err) {
      expect(err).to.be.instanceOf(NodeError);
    }
    expect(hits).to.deep.equal([3, 3]);
  });

  it('clients sharing a rotation follow each other to the working node', async () => {
    const shared = new NodeRotation(urls);
    answers[0] = 'drop';
    expect(await client(shared).topHeight()).to.equal(2);
    answers[0] = { status: 200, body: '{"height":1}' };
    expect(await client(shared, 1).topHeight()).to.equal(2);
    expect(hits).to.deep.equal([1, 2]);
  });
});
