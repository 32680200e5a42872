/**
 * @module Reorg notices (issue 61), beyond ae_mdw: a subscriber to `Reorgs` (ae_mdw's sockets) or `reorgs` (the
 * seed's) is told of each fork once, before the new chain's blocks, against forks the devnode makes, live, during a
 * replay, and reloaded with `-H`; the SDK's MiddlewareSubscriber beside them gets nothing new.
 */
import { expect } from 'chai';
import WebSocket from 'ws';
import { MemoryAccount, MiddlewareSubscriber } from '@aeternity/aepp-sdk';
import { parseJson, type Json } from '../../../src/chain/json.ts';
import { loadConfig } from '../../../src/config/middleware.ts';
import { reloadHeights } from '../../../src/indexer/maintenance/reload.ts';
import { waitFor } from '../../support/wait.ts';
import { silentLog } from '../api/harness.ts';
import { startV3, type ChainTruth, type V3UnderTest } from './harness.ts';

type Message = { [key: string]: Json };

/** A raw client: its replies and its events, in arrival order. */
interface Client {
  readonly replies: Json[];
  readonly events: Message[];
  ask(message: unknown): Promise<Json>;
  close(): void;
}

async function connect(url: string): Promise<Client> {
  const ws = new WebSocket(url);
  const replies: Json[] = [];
  const events: Message[] = [];
  let waiting: ((reply: Json) => void) | undefined;
  ws.on('message', (data) => {
    const message = parseJson(String(data));
    const reply =
      typeof message === 'string' ||
      Array.isArray(message) ||
      (message as Message).error !== undefined ||
      (message as Message).payload === 'Pong';
    if (reply) {
      replies.push(message);
      waiting?.(message);
      waiting = undefined;
    } else events.push(message as Message);
  });
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  return {
    replies,
    events,
    ask: (message) =>
      new Promise((resolve) => {
        waiting = resolve;
        ws.send(JSON.stringify(message));
      }),
    close: () => ws.close(),
  };
}

const quiet = (ms = 500): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** blocksOf lists the key and micro block hashes of heights from..to in chain order. */
function blocksOf(truth: ChainTruth, from: number, to: number): string[] {
  const hashes: string[] = [];
  for (let h = from; h <= to; h++)
    hashes.push(String(truth.keyBlocks[h]!.hash), ...(truth.microBlocks.get(h) ?? []).map((m) => String(m.hash)));
  return hashes;
}

/** lastBlockOf is a height's last block: its last micro block, else its key block. */
function lastBlockOf(truth: ChainTruth, height: number): string {
  return String((truth.microBlocks.get(height) ?? []).at(-1)?.hash ?? truth.keyBlocks[height]!.hash);
}

/** blockOf is the block an event is of (a transaction's micro block), or undefined for a notice. */
function blockOf(event: Message): string | undefined {
  const payload = event.payload as Message;
  if (event.subscription === 'Reorgs' || event.subscription === 'reorgs') return undefined;
  return String(payload.block_hash ?? payload.hash);
}

/**
 * expectToldOnce checks one client's events around one fork: one notice naming the fork exactly, no dropped block
 * after it, and every block of the new chain from the fork height after it.
 */
function expectToldOnce(
  events: readonly Message[],
  subscription: string,
  fork: { height: number; dropped: string[]; newBlocks: Set<string>; tops: Set<string> },
): void {
  const notices = events.filter((e) => e.subscription === subscription);
  expect(notices, `one ${subscription} message`).to.have.length(1);
  const notice = notices[0]!.payload as Message;
  expect(notice.height).to.equal(fork.height);
  expect(notice.dropped).to.deep.equal(fork.dropped);
  expect(notice.resent_from).to.equal(fork.height);
  const top = notice.top as Message;
  expect(fork.tops.has(`${String(top.height)} ${String(top.hash)}`), `top ${JSON.stringify(top)}`).to.equal(true);
  const at = events.indexOf(notices[0]!);
  const dropped = new Set(fork.dropped);
  const before = events.slice(0, at).map(blockOf);
  const after = events.slice(at + 1).map(blockOf);
  expect(
    before.filter((b) => b !== undefined && fork.newBlocks.has(b)),
    'new chain before the notice',
  ).to.deep.equal([]);
  expect(
    after.filter((b) => b !== undefined && dropped.has(b)),
    'dropped blocks after the notice',
  ).to.deep.equal([]);
}

describe("websocket reorg notices, beyond ae_mdw (devnode's forks → populator → server)", function () {
  this.timeout(180_000);
  let v3: V3UnderTest;
  before(async () => {
    v3 = await startV3(25, 'v3-ws-reorgs');
  });
  after(async () => {
    await v3?.close();
  });

  /** forkOf is what a fork of the top `depth` generations of `old` dropped and what it added, once synced. */
  async function forkOf(
    old: ChainTruth,
    forkedTop: number,
    depth: number,
  ): Promise<{ height: number; dropped: string[]; newBlocks: Set<string>; tops: Set<string>; truth: ChainTruth }> {
    const truth = await v3.truth();
    const height = forkedTop - depth + 1;
    const top = v3.devnode.height();
    const newBlocks = new Set(blocksOf(truth, height, top));
    // the rollback's batch holds the fork's heights, and the key block mined after it if the node had it by then
    const tops = new Set([forkedTop, top].map((h) => `${h} ${lastBlockOf(truth, h)}`));
    return { height, dropped: blocksOf(old, height, forkedTop), newBlocks, tops, truth };
  }

  it('tells a live subscriber of a fork of depth 5 once, before the new blocks, in both protocols; the SDK is unaffected', async () => {
    const sdk = new MiddlewareSubscriber(`${v3.wsUrl}/v3/websocket`);
    const sdkKeyBlocks: Message[] = [];
    const sdkErrors: Error[] = [];
    const stopKeyBlocks = sdk.subscribeKeyBlocks((p, e) => (e ? sdkErrors.push(e) : sdkKeyBlocks.push(p as Message)));
    const stopTxs = sdk.subscribeTransactions((_p, e) => {
      if (e) sdkErrors.push(e);
    });
    const mdw = await connect(`${v3.wsUrl}/v3/websocket`);
    expect(await mdw.ask({ op: 'Subscribe', payload: 'Reorgs' })).to.deep.equal(['Reorgs']);
    expect(await mdw.ask({ op: 'Subscribe', payload: 'KeyBlocks' })).to.deep.equal(['Reorgs', 'KeyBlocks']);
    expect(await mdw.ask({ op: 'Subscribe', payload: 'Transactions', source: 'mdw' })).to.deep.equal([
      'Reorgs',
      'KeyBlocks',
      'Transactions',
    ]);
    // as the SDK subscribes: without Reorgs
    const plain = await connect(`${v3.wsUrl}/v3/websocket`);
    await plain.ask({ op: 'Subscribe', payload: 'KeyBlocks' });
    const seed = await connect(`${v3.wsUrl}/`);
    expect(await seed.ask({ op: 'subscribe', payload: 'reorgs' })).to.deep.equal(['reorgs']);
    expect(await seed.ask({ op: 'subscribe', payload: 'key_blocks' })).to.deep.equal(['key_blocks', 'reorgs']);
    expect(await seed.ask({ op: 'subscribe', payload: 'micro_blocks' })).to.deep.equal([
      'key_blocks',
      'micro_blocks',
      'reorgs',
    ]);
    await quiet(300);

    // transactions in the generations the fork replaces: they move into its new blocks
    const recipient = MemoryAccount.generate().address;
    for (let i = 1; i <= 3; i++) {
      await v3.spend(recipient, i);
      await v3.devnode.mineMicroBlock();
      await v3.devnode.mineKeyBlock();
    }
    await v3.synced();
    const old = await v3.truth();
    const forkedTop = v3.devnode.height();
    await waitFor('the old top, live', () =>
      seed.events.some((e) => (e.payload as Message).hash === old.keyBlocks[forkedTop]!.hash),
    );
    await v3.devnode.fork(5);
    await v3.devnode.mineKeyBlock();
    await v3.synced();
    const fork = await forkOf(old, forkedTop, 5);
    const topHash = fork.truth.keyBlocks[v3.devnode.height()]!.hash;
    for (const c of [mdw, plain, seed])
      await waitFor('the new top', () => c.events.some((e) => (e.payload as Message).hash === topHash));
    await waitFor('the SDK has the new top', () => sdkKeyBlocks.some((k) => k.hash === topHash));
    await quiet();
    for (const c of [mdw, plain, seed]) c.close();
    stopKeyBlocks();
    stopTxs();

    expectToldOnce(mdw.events, 'Reorgs', fork);
    expectToldOnce(seed.events, 'reorgs', fork);
    const notice = mdw.events.find((e) => e.subscription === 'Reorgs')!;
    expect(notice.source).to.equal('mdw');
    expect(Object.keys(notice)).to.deep.equal(['payload', 'source', 'subscription']);
    // the same notice in both protocols
    expect(seed.events.find((e) => e.subscription === 'reorgs')!.payload).to.deep.equal(notice.payload);
    // after it, the new chain's key blocks from the fork height, each once, in chain order
    const at = mdw.events.indexOf(notice);
    const newKeys = fork.truth.keyBlocks.slice(fork.height).map((k) => k.hash);
    for (const source of ['mdw', 'node'])
      expect(
        mdw.events
          .slice(at + 1)
          .filter((e) => e.subscription === 'KeyBlocks' && e.source === source)
          .map((e) => (e.payload as Message).hash),
      ).to.deep.equal(newKeys);
    // the transactions moved into the new blocks come again with them
    const movedTxs = fork.truth.transactions
      .filter((t) => t.height >= fork.height)
      .map((t) => `${t.hash}@${t.blockHash}`);
    expect(movedTxs.length).to.be.greaterThan(0);
    expect(
      mdw.events
        .slice(at + 1)
        .filter((e) => e.subscription === 'Transactions')
        .map((e) => `${String((e.payload as Message).hash)}@${String((e.payload as Message).block_hash)}`),
    ).to.deep.equal(movedTxs);

    // nothing new for a client that did not ask: no Reorgs message, no error; the SDK gets its key blocks
    expect(plain.events.filter((e) => e.subscription !== 'KeyBlocks')).to.deep.equal([]);
    expect(plain.replies).to.deep.equal([['KeyBlocks']]);
    expect(sdkErrors).to.deep.equal([]);
    expect(sdkKeyBlocks.map((k) => k.hash)).to.include.members(newKeys);
  });

  it('tells a client during a replay once, before the new blocks: the chain it ends with is the new one', async () => {
    const old = await v3.truth();
    const forkedTop = v3.devnode.height();
    const from = forkedTop - 20;
    const c = await connect(`${v3.wsUrl}/v3/websocket`);
    await c.ask({ op: 'Subscribe', payload: 'Reorgs' });
    // the transactions' replay renders each one: slow enough for the fork to land while it runs
    await c.ask({ op: 'Subscribe', payload: 'Transactions', source: 'mdw', from_height: from });
    await c.ask({ op: 'Subscribe', payload: 'KeyBlocks', source: 'node', from_height: from });
    await c.ask({ op: 'Subscribe', payload: 'MicroBlocks', source: 'node', from_height: from });
    await v3.devnode.fork(5);
    await v3.devnode.mineKeyBlock();
    await v3.synced();
    const fork = await forkOf(old, forkedTop, 5);
    const top = v3.devnode.height();
    const topHash = fork.truth.keyBlocks[top]!.hash;
    await waitFor('the new top', () =>
      c.events.some((e) => e.subscription === 'KeyBlocks' && (e.payload as Message).hash === topHash),
    );
    await quiet();
    c.close();

    expectToldOnce(c.events, 'Reorgs', fork);
    // with the blocks the fork dropped taken out, the client has the new chain from from_height: each block once, in order
    const dropped = new Set(fork.dropped);
    const kept = (subscription: string): (Json | undefined)[] =>
      c.events
        .filter((e) => e.subscription === subscription && !dropped.has(blockOf(e)!))
        .map((e) => (e.payload as Message).hash);
    expect(kept('KeyBlocks')).to.deep.equal(fork.truth.keyBlocks.slice(from).map((k) => k.hash));
    expect(kept('MicroBlocks')).to.deep.equal(
      [...fork.truth.microBlocks].filter(([h]) => h >= from).flatMap(([, ms]) => ms.map((m) => m.hash)),
    );
    expect(kept('Transactions')).to.deep.equal(
      fork.truth.transactions.filter((t) => t.height >= from).map((t) => t.hash),
    );
  });

  it('a reload with -H tells nothing when it writes the same blocks, and a fork it reloads once', async () => {
    const cfg = loadConfig(v3.settings);
    const c = await connect(`${v3.wsUrl}/v3/websocket`);
    await c.ask({ op: 'Subscribe', payload: 'Reorgs' });
    await c.ask({ op: 'Subscribe', payload: 'KeyBlocks', source: 'node' });
    const top = v3.devnode.height();
    const heights = [top - 4, top - 3, top - 2, top - 1, top];
    const old = await v3.truth();
    await v3.withoutPopulator(async () => {
      await reloadHeights({ cfg, log: silentLog }, heights);
      await quiet(1500);
      expect(c.events, 'the same blocks reloaded: nothing told, nothing sent again').to.deep.equal([]);
      // a fork the populator does not follow: the reload finds other blocks
      await v3.devnode.fork(5);
      await reloadHeights({ cfg, log: silentLog }, heights);
    });
    await v3.synced();
    const fork = await forkOf(old, top, 5);
    const topHash = fork.truth.keyBlocks[top]!.hash;
    await waitFor('the new top', () => c.events.some((e) => (e.payload as Message).hash === topHash));
    await quiet();
    c.close();
    expectToldOnce(c.events, 'Reorgs', fork);
    expect(
      c.events.filter((e) => e.subscription === 'KeyBlocks').map((e) => (e.payload as Message).hash),
    ).to.deep.equal(fork.truth.keyBlocks.slice(top - 4).map((k) => k.hash));
  });

  it('tells a fork deeper than its memory of sent blocks with all it dropped, and resends the remembered heights', async () => {
    // more generations than the server remembers (max(100, 2 × FORK_WINDOW) = 100), then a fork of 110
    while (v3.devnode.height() < 125) await v3.devnode.mineKeyBlock();
    await v3.synced();
    const c = await connect(`${v3.wsUrl}/`);
    await c.ask({ op: 'subscribe', payload: 'reorgs' });
    await c.ask({ op: 'subscribe', payload: 'key_blocks' });
    // live: the server has delivered the top (its memory reaches 100 heights below it)
    await v3.devnode.mineKeyBlock();
    await v3.synced();
    await waitFor('the top, live', () => c.events.length > 0);
    const oldTruth = await v3.truth();
    const top = v3.devnode.height();
    await v3.devnode.fork(110);
    await v3.synced();
    const fork = await forkOf(oldTruth, top, 110);
    const topHash = fork.truth.keyBlocks[top]!.hash;
    await waitFor('the new top', () => c.events.some((e) => (e.payload as Message).hash === topHash));
    await quiet();
    c.close();
    const notices = c.events.filter((e) => e.subscription === 'reorgs');
    expect(notices).to.have.length(1);
    const resentFrom = top + 1 - 100;
    expect(notices[0]!.payload).to.deep.equal({
      height: fork.height,
      dropped: fork.dropped,
      top: { height: top, hash: lastBlockOf(fork.truth, top) },
      resent_from: resentFrom,
    });
    // after it, the new chain's key blocks from resent_from: the deeper ones are the HTTP API's to read
    const at = c.events.indexOf(notices[0]!);
    expect(c.events.slice(at + 1).map((e) => (e.payload as Message).hash)).to.deep.equal(
      fork.truth.keyBlocks.slice(resentFrom).map((k) => k.hash),
    );
  });

  it('refuses from_height and the node source on Reorgs', async () => {
    const c = await connect(`${v3.wsUrl}/v3/websocket`);
    expect(await c.ask({ op: 'Subscribe', payload: 'Reorgs', from_height: 1 })).to.equal(
      'from_height not taken by Reorgs',
    );
    expect(await c.ask({ op: 'Subscribe', payload: 'Reorgs', source: 'node' })).to.equal('invalid source: node');
    expect(await c.ask({ op: 'Subscribe', payload: 'Reorgs', source: 'mdw' })).to.deep.equal(['Reorgs']);
    expect(await c.ask({ op: 'Ping' })).to.deep.equal({ payload: 'Pong', subscriptions: ['Reorgs'], count: 1 });
    c.close();
  });
});
