/**
 * @module Beyond ae_mdw: a Subscribe with `from_height` replays the stored events from that height, then the live
 * ones, against the devnode's chain as truth: blocks mined and a fork landing while the replay runs, bad input, and
 * the SDK's MiddlewareSubscriber beside it, which gets the live events only.
 */
import { expect } from 'chai';
import prom from 'prom-client';
import WebSocket from 'ws';
import { MemoryAccount, MiddlewareSubscriber } from '@aeternity/aepp-sdk';
import { parseJson, type Json } from '../../../src/chain/json.ts';
import { loadConfig } from '../../../src/config/middleware.ts';
import { startWebsocketServer } from '../../../src/events/ws-server.ts';
import { waitFor } from '../../support/wait.ts';
import { silentLog } from '../api/harness.ts';
import { startV3, type V3UnderTest } from './harness.ts';

type Message = { [key: string]: Json };

/** A raw client: every message it got, in order. */
interface Listener {
  readonly replies: Json[];
  readonly events: Message[];
  send(message: unknown): void;
  /** ask sends a message and resolves with the next reply (a list or an error string) */
  ask(message: unknown): Promise<Json>;
  close(): void;
}

async function listen(url: string): Promise<Listener> {
  const ws = new WebSocket(url);
  const replies: Json[] = [];
  const events: Message[] = [];
  let waiting: ((reply: Json) => void) | undefined;
  ws.on('message', (data) => {
    const message = parseJson(String(data));
    if (typeof message === 'string' || Array.isArray(message)) {
      replies.push(message);
      waiting?.(message);
      waiting = undefined;
    } else events.push(message as Message);
  });
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  const send = (message: unknown): void => ws.send(JSON.stringify(message));
  return {
    replies,
    events,
    send,
    ask: (message) =>
      new Promise((resolve) => {
        waiting = resolve;
        send(message);
      }),
    close: () => ws.close(),
  };
}

const quiet = (ms = 500): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** of lists the payloads of one subscription and source, in arrival order. */
function of(events: Message[], subscription: string, source: string): Message[] {
  return events.filter((e) => e.subscription === subscription && e.source === source).map((e) => e.payload as Message);
}

describe("ae_mdw's websocket: replay from a height, beyond ae_mdw (devnode → populator → server)", function () {
  this.timeout(180_000);
  let v3: V3UnderTest;
  before(async () => {
    v3 = await startV3(20, 'v3-ws-replay');
  });
  after(async () => {
    await v3?.close();
  });

  it('replays from the height, then goes live with blocks mined meanwhile: every block once, in chain order', async () => {
    const from = 3;
    const sdk = new MiddlewareSubscriber(`${v3.wsUrl}/v3/websocket`);
    const sdkKeyBlocks: Message[] = [];
    const sdkErrors: Error[] = [];
    const stop = sdk.subscribeKeyBlocks((p, e) => (e ? sdkErrors.push(e) : sdkKeyBlocks.push(p as Message)));
    await quiet(300);
    const topBefore = v3.devnode.height();

    const c = await listen(`${v3.wsUrl}/v3/websocket`);
    c.send({ op: 'Subscribe', payload: 'KeyBlocks', from_height: from });
    c.send({ op: 'Subscribe', payload: 'Transactions', source: 'mdw', from_height: from });
    c.send({ op: 'Subscribe', payload: 'MicroBlocks', source: 'node', from_height: from });
    // mined while the replays run (three of them, one after the other)
    const recipient = MemoryAccount.generate().address;
    for (let i = 1; i <= 3; i++) {
      await v3.spend(recipient, i);
      await v3.devnode.mineMicroBlock();
      await v3.devnode.mineKeyBlock();
    }
    await v3.synced();
    const truth = await v3.truth();
    const top = v3.devnode.height();
    const topHash = truth.keyBlocks[top]!.hash;
    await waitFor(
      'the replay and the live events up to the top',
      () =>
        of(c.events, 'KeyBlocks', 'mdw').some((k) => k.hash === topHash) &&
        of(c.events, 'KeyBlocks', 'node').some((k) => k.hash === topHash) &&
        of(c.events, 'Transactions', 'mdw').length >= truth.transactions.filter((t) => t.height >= from).length,
    );
    await quiet();
    c.close();
    stop();

    expect(c.replies).to.deep.equal([
      ['KeyBlocks'],
      ['KeyBlocks', 'Transactions'],
      ['KeyBlocks', 'Transactions', 'MicroBlocks'],
    ]);
    const keyHashes = truth.keyBlocks.slice(from).map((k) => k.hash);
    expect(of(c.events, 'KeyBlocks', 'mdw').map((k) => k.hash)).to.deep.equal(keyHashes);
    expect(of(c.events, 'KeyBlocks', 'node').map((k) => k.hash)).to.deep.equal(keyHashes);
    const microHashes = [...truth.microBlocks].filter(([h]) => h >= from).flatMap(([, ms]) => ms.map((m) => m.hash));
    expect(of(c.events, 'MicroBlocks', 'node').map((m) => m.hash)).to.deep.equal(microHashes);
    const txs = truth.transactions.filter((t) => t.height >= from);
    expect(of(c.events, 'Transactions', 'mdw').map((t) => [t.hash, t.block_hash])).to.deep.equal(
      txs.map((t) => [t.hash, t.blockHash]),
    );
    // nothing else: no Object messages, no other source
    expect(c.events).to.have.length(2 * keyHashes.length + microHashes.length + txs.length);

    // replayed events are what live ones are: the node's objects, and /mdw/v3's for source mdw
    expect(of(c.events, 'KeyBlocks', 'node')[0]).to.deep.equal(truth.keyBlocks[from]);
    expect(of(c.events, 'MicroBlocks', 'node')[0]).to.deep.equal(truth.microBlocks.get(from)![0]);
    const firstKey = of(c.events, 'KeyBlocks', 'mdw')[0]!;
    expect(firstKey).to.deep.equal((await v3.get(`/mdw/v3/key-blocks/${String(firstKey.hash)}`)).body);
    const firstTx = of(c.events, 'Transactions', 'mdw')[0]!;
    expect(firstTx).to.deep.equal((await v3.get(`/mdw/v3/transactions/${String(firstTx.hash)}`)).body);

    // the SDK's subscriber beside it got the live key blocks only, each once
    expect(sdkErrors).to.deep.equal([]);
    expect(sdkKeyBlocks.map((k) => k.hash)).to.deep.equal(truth.keyBlocks.slice(topBefore + 1).map((k) => k.hash));
  });

  it('after a fork during the replay, the client has the new chain from the height, each block once, in order', async () => {
    const forkedTop = v3.devnode.height();
    const from = forkedTop - 15;
    const c = await listen(`${v3.wsUrl}/v3/websocket`);
    // the transactions' replay renders each one: slow enough for the fork to land while it runs, below the
    // heights its first batch reads (it then replays the new chain from the fork height)
    c.send({ op: 'Subscribe', payload: 'Transactions', source: 'mdw', from_height: from });
    c.send({ op: 'Subscribe', payload: 'KeyBlocks', source: 'node', from_height: from });
    await v3.devnode.fork(12);
    await v3.devnode.mineKeyBlock();
    await v3.synced();
    const truth = await v3.truth();
    const top = v3.devnode.height();
    const topHash = truth.keyBlocks[top]!.hash;
    await waitFor('the new top', () => of(c.events, 'KeyBlocks', 'node').some((k) => k.hash === topHash));
    await quiet();
    c.close();

    const keys = of(c.events, 'KeyBlocks', 'node');
    const canonicalKeys = new Set(truth.keyBlocks.map((k) => k.hash));
    expect(new Set(keys.map((k) => k.hash)).size, 'no key block twice').to.equal(keys.length);
    expect(keys.filter((k) => canonicalKeys.has(k.hash)).map((k) => k.hash)).to.deep.equal(
      truth.keyBlocks.slice(from).map((k) => k.hash),
    );
    // what else came are the blocks the fork replaced (replayed, or sent live, before it)
    for (const k of keys.filter((k) => !canonicalKeys.has(k.hash)))
      expect(Number(k.height)).to.be.within(forkedTop - 11, forkedTop);

    // a transaction of a replaced block comes again in its new block: once per block
    const txs = of(c.events, 'Transactions', 'mdw').map((t) => `${String(t.hash)}@${String(t.block_hash)}`);
    expect(new Set(txs).size, 'no transaction twice in one block').to.equal(txs.length);
    const canonicalTxs = truth.transactions.filter((t) => t.height >= from).map((t) => `${t.hash}@${t.blockHash}`);
    const canonical = new Set(canonicalTxs);
    expect(txs.filter((t) => canonical.has(t))).to.deep.equal(canonicalTxs);
  });

  it('answers a bad from_height with an error string and keeps the connection; top + 1 means the live events only', async () => {
    const top = v3.devnode.height();
    const bounded = await startWebsocketServer({
      cfg: loadConfig({ ...v3.settings, WEBSOCKET_MDW_MAX_REPLAY_HEIGHTS: '5' }),
      log: silentLog,
      pool: v3.pool,
      registry: new prom.Registry(),
    });
    try {
      const c = await listen(`${bounded.url}/v3/websocket`);
      const subscribe = (fromHeight: unknown): Promise<Json> =>
        c.ask({ op: 'Subscribe', payload: 'KeyBlocks', from_height: fromHeight });
      expect(await subscribe(-1)).to.equal('invalid from_height: -1');
      expect(await subscribe('x')).to.equal('invalid from_height: "x"');
      expect(await subscribe(2.5)).to.equal('invalid from_height: 2.5');
      expect(await subscribe(null)).to.equal('invalid from_height: null');
      expect(await subscribe(top + 2)).to.equal(`from_height above the top (${top}): ${top + 2}`);
      expect(await subscribe(top - 5)).to.equal(
        `from_height further back than 5 heights from the top (${top}): ${top - 5}`,
      );
      expect(await subscribe(top + 1)).to.deep.equal(['KeyBlocks']);
      expect(await c.ask({ op: 'Subscribe', payload: 'KeyBlocks', source: 'node', from_height: top })).to.equal(
        'from_height on a subscription already held: KeyBlocks',
      );
      await v3.devnode.mineKeyBlock();
      await v3.synced();
      await waitFor('the next key block from both sources', () => c.events.length >= 2);
      await quiet(300);
      c.close();
      const hash = (await v3.nodeGet(`/v2/key-blocks/height/${top + 1}`)) as Message;
      expect(c.events.map((e) => [e.subscription, e.source, (e.payload as Message).hash])).to.deep.equal([
        ['KeyBlocks', 'mdw', hash.hash],
        ['KeyBlocks', 'node', hash.hash],
      ]);
    } finally {
      await bounded.stop();
    }
  });
});
