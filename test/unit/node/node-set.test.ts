/** @module Node failover: the pure selection order, and NodeClient moving between two local HTTP servers. */
import { expect } from 'chai';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { NodeClient } from '../../../src/node/client.ts';
import { NodeError } from '../../../src/node/errors.ts';
import { LAST, NodeSet, URGENT } from '../../../src/node/node-set.ts';
import { deadEnd } from '../../support/dead-end.ts';

const log = pino({ level: 'silent' });

describe('NodeSet', () => {
  it('normalises the URLs and refuses an empty list', () => {
    expect(new NodeSet(['http://a/', 'http://b']).urls).to.deep.equal(['http://a', 'http://b']);
    expect(() => new NodeSet([])).to.throw(TypeError);
  });

  it('hands slots to the node with the most room, and queues when every slot is taken', async () => {
    const set = new NodeSet(['http://a', 'http://b'], { initial: 2 });
    const taken = [await set.acquire([0, 1]), await set.acquire([0, 1]), await set.acquire([0, 1])];
    expect(taken.sort()).to.deep.equal([0, 0, 1]);
    await set.acquire([0, 1]);
    expect(set.inFlight).to.equal(4);
    let fifth: number | undefined;
    const waiting = set.acquire([0, 1]).then((i) => (fifth = i));
    await Promise.resolve();
    expect(fifth).to.equal(undefined);
    set.release(1, 20);
    await waiting;
    expect(fifth).to.equal(1);
  });

  it('gives a freed slot to the lowest priority waiting (urgent first), in arrival order among equals', async () => {
    const set = new NodeSet(['http://a'], { initial: 2 });
    await set.acquire([0]);
    await set.acquire([0]);
    const order: string[] = [];
    const wait = (name: string, priority?: number): Promise<void> =>
      set.acquire([0], undefined, priority).then(() => void order.push(name));
    const all = [
      wait('none 1'),
      wait('height 7 a', 7),
      wait('height 3', 3),
      wait('urgent 1', URGENT),
      wait('height 7 b', 7),
      wait('none 2'),
      wait('urgent 2', URGENT),
    ];
    for (let i = 0; i < all.length; i++) set.release(0, 20);
    await Promise.all(all);
    expect(order).to.deep.equal(['urgent 1', 'urgent 2', 'height 3', 'height 7 a', 'height 7 b', 'none 1', 'none 2']);
  });

  it('passes over a node that just failed while another can serve, and leaves out a dropped one', async () => {
    const set = new NodeSet(['http://a', 'http://b'], { initial: 4 });
    set.failed(0, 60_000);
    expect(await set.acquire([0, 1])).to.equal(1);
    expect(await set.acquire([0]), 'alone, it is asked all the same').to.equal(0);
    expect(set.drop(1)).to.equal(true);
    expect(set.drop(1)).to.equal(false);
    expect(set.healthy()).to.deep.equal([0]);
    expect(set.capacity).to.equal(4);
    expect(set.restore(1)).to.equal(true);
    expect(set.healthy()).to.deep.equal([0, 1]);
    expect(await set.acquire([])).to.equal(undefined);
  });
});

describe('NodeSet: what a node admits, and its pace', () => {
  it('keeps reads and dry-runs in their own budgets, each within what the node admits', async () => {
    const set = new NodeSet(['http://a'], { initial: 32 }, { read: 3, dryRun: 2 });
    expect(set.limit(0), 'the read limit never above what the node admits').to.equal(3);
    const reads = await Promise.all([0, 1, 2].map(() => set.acquire([0])));
    const dryRuns = await Promise.all([0, 1].map(() => set.acquire([0], undefined, URGENT, 'dryRun')));
    expect([...reads, ...dryRuns]).to.deep.equal([0, 0, 0, 0, 0]);
    expect(set.inFlight).to.equal(5);
    let [read, dryRun]: (number | undefined)[] = [];
    const waiting = [
      set.acquire([0]).then((i) => (read = i)),
      set.acquire([0], undefined, URGENT, 'dryRun').then((i) => (dryRun = i)),
    ];
    await Promise.resolve();
    expect([read, dryRun], 'both budgets full').to.deep.equal([undefined, undefined]);
    // a freed read slot is a read's, not the dry-run's
    set.release(0, 20);
    await waiting[0];
    expect([read, dryRun]).to.deep.equal([0, undefined]);
    set.release(0, undefined, 'dryRun');
    await waiting[1];
    expect(dryRun).to.equal(0);
  });

  it('pauses a node that refused for the kind refused, at its pace, while the other nodes serve on', async () => {
    const set = new NodeSet(['http://a', 'http://b'], { initial: 4 });
    expect(await set.acquire([0, 1])).to.equal(0);
    // a refusal that asks for a wait (after 7.2.2): that node's reads only are left alone that long, its limit cut
    const pause = set.refused(0, 'read', 1000);
    set.release(0);
    expect(pause).to.equal(1000);
    expect([set.paused(0), set.paused(0, 'dryRun'), set.paused(1)]).to.deep.equal([true, false, false]);
    expect(set.limit(0)).to.equal(2);
    expect(await set.acquire([0, 1]), 'the other node serves').to.equal(1);
    expect(await set.acquire([0, 1], undefined, LAST, 'dryRun'), 'its dry-runs are admitted').to.equal(0);
    // a request only the paused node may serve waits for the pause's end, then goes
    const started = Date.now();
    expect(await set.acquire([0])).to.equal(0);
    expect(Date.now() - started).to.be.at.least(900);
    expect(set.paused(0)).to.equal(false);
    // without Retry-After (7.2.2): a short pause of its own
    expect(new NodeSet(['http://c']).refused(0, 'read')).to.be.within(80, 120);
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
    // each test on new connections: a kept-alive one dropped under a request is sent again at once (http-get.ts),
    // which would count twice here
    for (const s of servers) s.closeIdleConnections();
  });

  /** height reads one plain object (topHeight with several nodes reads each node's top, see the fork tests) */
  const height = async (c: NodeClient): Promise<unknown> => ((await c.get('/x')) as { height: unknown }).height;
  // no case here waits out a timeout: 5 s, far above a loaded machine's answer (at load 13 a 500 ms one timed out a
  // healthy node's answer and moved the client back to the refusing one)
  const client = (url: NodeClientUrl, attempts = 2): NodeClient =>
    new NodeClient({ url, timeoutMs: 5000, attempts, backoffInitialMs: 5, backoffMaxMs: 10 }, log);
  type NodeClientUrl = ConstructorParameters<typeof NodeClient>[0]['url'];

  for (const [what, answer] of [
    ['a 503', { status: 503, body: '{"reason":"overload"}' }],
    ['a dropped connection', 'drop'],
  ] as const) {
    it(`moves to the next node on ${what} and stays there`, async () => {
      answers[0] = answer;
      const c = client(urls);
      expect(await height(c)).to.equal(2);
      answers[0] = { status: 200, body: '{"height":1}' };
      expect(await height(c)).to.equal(2);
      expect(hits).to.deep.equal([1, 2]);
    });
  }

  it('moves on when a node is down (each connection reset)', async () => {
    const down = await deadEnd();
    const c = client([down.url, urls[1]!]);
    expect(await height(c)).to.equal(2);
    await down.close();
  });

  it('asks the other node on a 404 (a node may be behind), and says 404 at once when none has it', async () => {
    answers[0] = { status: 404, body: '{"reason":"Block not found"}' };
    expect(await client(urls).keyBlock(99)).to.deep.equal({ height: 2 });
    answers[1] = { status: 404, body: '{"reason":"Block not found"}' };
    hits.fill(0);
    try {
      await client(urls, 3).keyBlock(99);
      expect.fail('should throw');
    } catch (err) {
      expect((err as NodeError).notFound).to.equal(true);
    }
    expect(hits).to.deep.equal([1, 1]);
  });

  const GONE = { status: 410, body: '{"reason":"State data at the requested height has been garbage-collected"}' };

  it('asks the next node when one has garbage-collected the state (410)', async () => {
    answers[0] = GONE;
    expect(await height(client(urls))).to.equal(2);
    expect(hits).to.deep.equal([1, 1]);
  });

  it('gives the 410 at once, without backing off, when every node has pruned the state', async () => {
    answers[0] = GONE;
    answers[1] = GONE;
    try {
      await height(client(urls, 3));
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
      await height(client(urls, 3));
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
      await height(client(urls, 3));
      expect.fail('should throw');
    } catch (err) {
      expect(err).to.be.instanceOf(NodeError);
    }
    expect(hits).to.deep.equal([3, 3]);
  });

  it('clients sharing a set pass over the node that failed', async () => {
    const shared = new NodeSet(urls);
    answers[0] = 'drop';
    expect(await height(client(shared))).to.equal(2);
    answers[0] = { status: 200, body: '{"height":1}' };
    expect(await height(client(shared, 1))).to.equal(2);
    expect(hits).to.deep.equal([1, 2]);
  });

  it('never sends the same request twice while it is in flight', async () => {
    const c = client(urls);
    const [a, b] = await Promise.all([c.get('/same'), c.get('/same')]);
    expect(a).to.deep.equal(b);
    expect(hits[0]! + hits[1]!).to.equal(1);
  });
});

describe("NodeClient's priorities in a full node set", () => {
  let server: Server;
  let url: string;
  const paths: string[] = [];
  let unblock!: () => void;
  const blocked = new Promise<void>((resolve) => (unblock = resolve));

  before(async () => {
    server = createServer((req, res) => {
      paths.push(req.url!);
      const answer = (): void => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"height":1,"key_block":{"height":1},"micro_blocks":[],"transactions":[],"call_info":{}}');
      };
      if (req.url === '/v2/blocker') void blocked.then(answer);
      else answer();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => {
    server.closeAllConnections();
    server.close();
  });

  it('sends the top poll and contract code first, then lower heights before higher ones, then the rest', async () => {
    // one slot, held by a request the server answers only when told
    const c = new NodeClient({ url: new NodeSet([url], { initial: 1, min: 1, max: 1 }), timeoutMs: 5000 }, log);
    const blocker = c.get('/blocker');
    await new Promise((resolve) => setTimeout(resolve, 50));
    const waiting = [
      c.get('/other'),
      c.microBlockHeader('mh_9', 9),
      c.transactionInfo('th_9', 9),
      c.generation(4),
      c.contractCode('ct_x').catch(() => undefined), // no bytecode in the answer: only its order counts
      c.microBlockTransactions('mh_4', 4),
      c.topHeight(),
    ];
    unblock();
    await Promise.all([blocker, ...waiting]);
    expect(paths).to.deep.equal([
      '/v2/blocker',
      '/v2/contracts/ct_x/code',
      '/v2/key-blocks/current/height',
      '/v2/generations/height/4',
      '/v2/micro-blocks/hash/mh_4/transactions',
      '/v2/micro-blocks/hash/mh_9/header',
      '/v2/transactions/th_9/info',
      '/v2/other',
    ]);
  });
});
