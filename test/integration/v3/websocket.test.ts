import { expect } from 'chai';
import WebSocket from 'ws';
import { MiddlewareSubscriber, MemoryAccount } from '@aeternity/aepp-sdk';
import { startV3, type V3UnderTest } from './harness.ts';

type Message = { [key: string]: unknown };

/** collect subscribes with one of MiddlewareSubscriber's methods and gathers what its callback receives. */
function collect(subscribe: (cb: (p?: unknown, e?: Error) => void) => () => void): {
  payloads: Message[];
  errors: Error[];
  stop: () => void;
} {
  const payloads: Message[] = [];
  const errors: Error[] = [];
  const stop = subscribe((p, e) => {
    if (e) errors.push(e);
    else payloads.push(p as Message);
  });
  return { payloads, errors, stop };
}

async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 50));
  if (!check()) throw new Error(`timed out waiting for ${what}`);
}

/** raw opens a plain socket and returns a function sending a message and reading the reply. */
async function raw(url: string): Promise<{ ask: (m: unknown) => Promise<unknown>; close: () => void }> {
  const ws = new WebSocket(url);
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  return {
    ask: (m) =>
      new Promise((resolve) => {
        ws.once('message', (data) => resolve(JSON.parse(String(data))));
        ws.send(typeof m === 'string' ? m : JSON.stringify(m));
      }),
    close: () => ws.close(),
  };
}

describe("ae_mdw's websocket through the SDK's MiddlewareSubscriber (devnode → populator → server)", function () {
  this.timeout(120_000);
  let v3: V3UnderTest;
  before(async () => {
    v3 = await startV3(5, 'v3-ws');
  });
  after(async () => {
    await v3?.close();
  });

  it('delivers key blocks, micro blocks, transactions and objects to all twelve subscribe methods', async () => {
    const sub = new MiddlewareSubscriber(`${v3.wsUrl}/v3/websocket`);
    const recipient = MemoryAccount.generate().address;
    const got = {
      keyBlocks: collect((cb) => sub.subscribeKeyBlocks(cb)),
      keyBlocksNode: collect((cb) => sub.subscribeKeyBlocksNode(cb)),
      keyBlocksAll: collect((cb) => sub.subscribeKeyBlocksAll(cb)),
      micro: collect((cb) => sub.subscribeMicroBlocks(cb)),
      microNode: collect((cb) => sub.subscribeMicroBlocksNode(cb)),
      microAll: collect((cb) => sub.subscribeMicroBlocksAll(cb)),
      txs: collect((cb) => sub.subscribeTransactions(cb)),
      txsNode: collect((cb) => sub.subscribeTransactionsNode(cb)),
      txsAll: collect((cb) => sub.subscribeTransactionsAll(cb)),
      object: collect((cb) => sub.subscribeObject(recipient as `ak_${string}`, cb)),
      objectNode: collect((cb) => sub.subscribeObjectNode(recipient as `ak_${string}`, cb)),
      objectAll: collect((cb) => sub.subscribeObjectAll(recipient as `ak_${string}`, cb)),
    };
    // the subscriptions are answered before anything is mined
    await new Promise((r) => setTimeout(r, 300));
    const hash = await v3.spend(recipient, 12345);
    await v3.devnode.mineMicroBlock();
    await v3.devnode.mineKeyBlock();
    await v3.synced();
    await until(() => Object.values(got).every((g) => g.payloads.length > 0), 'every subscription');
    for (const [name, g] of Object.entries(got)) expect(g.errors, name).to.deep.equal([]);

    const top = v3.devnode.height();
    const kb = got.keyBlocks.payloads.find((p) => p.height === top)!;
    expect(kb, 'mdw key block').to.include.keys('micro_blocks_count', 'transactions_count', 'beneficiary_reward');
    const nodeKb = got.keyBlocksNode.payloads.find((p) => p.height === top)!;
    expect(nodeKb).to.not.have.property('micro_blocks_count');
    expect(nodeKb.hash).to.equal(kb.hash);
    expect(got.keyBlocksAll.payloads.filter((p) => p.hash === kb.hash)).to.have.length(2);

    const mdwTx = got.txs.payloads.find((p) => p.hash === hash)!;
    expect(mdwTx.encoded_tx).to.match(/^tx_/);
    expect((mdwTx.tx as Message).recipient_id).to.equal(recipient);
    // the node source's transaction is the node's own answer for it, encoded_tx included
    const node = (await v3.nodeGet(`/v3/transactions/${hash}`)) as Message;
    expect(node.encoded_tx).to.match(/^tx_/);
    for (const g of [got.txsNode, got.objectNode]) expect(g.payloads.find((p) => p.hash === hash)).to.deep.equal(node);
    expect(got.txsAll.payloads.filter((p) => p.hash === hash)).to.deep.include(node);
    expect(got.object.payloads.map((p) => p.hash)).to.deep.equal([hash]);
    expect(got.objectNode.payloads.map((p) => p.hash)).to.deep.equal([hash]);
    expect(got.objectAll.payloads.map((p) => p.hash)).to.deep.equal([hash, hash]);
    expect(got.micro.payloads.some((p) => p.transactions_count === 1 && p.hash === mdwTx.block_hash)).to.equal(true);
    for (const g of Object.values(got)) g.stop();
  });

  it('answers subscriptions with the whole list, errors as strings, Ping with Pong; v2 sends the v2 shape', async () => {
    const c = await raw(`${v3.wsUrl}/v2/websocket`);
    const target = MemoryAccount.generate().address;
    expect(await c.ask({ op: 'Subscribe', payload: 'KeyBlocks' })).to.deep.equal(['KeyBlocks']);
    expect(await c.ask({ op: 'Subscribe', payload: 'Object', target })).to.deep.equal(['KeyBlocks', target]);
    expect(await c.ask({ op: 'Subscribe', payload: 'Object', target: 'ak_test' })).to.equal('invalid target: ak_test');
    expect(await c.ask({ op: 'Subscribe', payload: 'Foo' })).to.equal('invalid payload: Foo');
    expect(await c.ask({ op: 'Subscribe', payload: 'Object' })).to.equal('missing field: target');
    expect(await c.ask({ op: 'Subscribe', payload: 'KeyBlocks', source: 'x' })).to.equal('invalid source: x');
    expect(await c.ask({ op: 'Subscribe', payload: 'KeyBlocks' })).to.equal('already subscribed to: KeyBlocks');
    expect(await c.ask({ op: 'Unsubscribe', payload: 'MicroBlocks' })).to.equal(
      'no subscription for payload: MicroBlocks',
    );
    expect(await c.ask({ op: 'Ping' })).to.deep.equal({
      payload: 'Pong',
      subscriptions: ['KeyBlocks', target],
      count: 2,
    });
    expect(await c.ask({ op: 'Unsubscribe', payload: 'KeyBlocks' })).to.deep.equal([target]);
    expect(await c.ask({ op: 'Subscribe', payload: 'Transactions', source: 'mdw' })).to.deep.equal([
      target,
      'Transactions',
    ]);
    c.close();

    const seen: Message[] = [];
    const ws = new WebSocket(`${v3.wsUrl}/v2/websocket`);
    await new Promise((resolve) => ws.once('open', resolve));
    ws.on('message', (data) => seen.push(JSON.parse(String(data)) as Message));
    ws.send(JSON.stringify({ op: 'Subscribe', payload: 'Transactions', source: 'mdw' }));
    await until(() => seen.length === 1, 'the subscribe reply');
    const hash = await v3.spend(target, 1);
    await v3.devnode.mineMicroBlock();
    await until(() => seen.length > 1, 'a v2 transaction');
    ws.close();
    const message = seen[1]!;
    expect(message).to.include({ source: 'mdw', subscription: 'Transactions' });
    const payload = message.payload as Message;
    expect(payload.hash).to.equal(hash);
    // the node's since 7.x, its encoded_tx included: ae_mdw's v2 payload is the node's serialize_for_client
    const node = (await v3.nodeGet(`/v2/transactions/${hash}`)) as Message;
    expect(node.encoded_tx).to.match(/^tx_/);
    const { tx_index: txIndex, micro_index: microIndex, micro_time: microTime, ...rest } = payload;
    expect(rest).to.deep.equal(node);
    expect(txIndex).to.be.a('number');
    expect(microIndex).to.be.a('number');
    expect(microTime).to.be.a('number');
  });

  it("keeps the seed protocol on every other path of the same port, its transactions the node's", async () => {
    const c = await raw(v3.wsUrl);
    expect(await c.ask({ op: 'subscribe', payload: 'key_blocks' })).to.deep.equal(['key_blocks']);
    c.close();

    const seen: Message[] = [];
    const ws = new WebSocket(v3.wsUrl);
    await new Promise((resolve) => ws.once('open', resolve));
    ws.on('message', (data) => seen.push(JSON.parse(String(data)) as Message));
    ws.send(JSON.stringify({ op: 'subscribe', payload: 'transactions' }));
    await until(() => seen.length === 1, 'the subscribe reply');
    const hash = await v3.spend(MemoryAccount.generate().address, 2);
    await v3.devnode.mineMicroBlock();
    await until(() => seen.some((m) => (m.payload as Message | undefined)?.hash === hash), 'the transaction');
    ws.close();
    // the node's own answer for it, encoded_tx included
    const node = (await v3.nodeGet(`/v3/transactions/${hash}`)) as Message;
    expect(node.encoded_tx).to.match(/^tx_/);
    const event = seen.find((m) => (m.payload as Message | undefined)?.hash === hash)!;
    expect(event).to.deep.equal({ payload: node, subscription: 'transactions' });
  });

  it('pages never skip or repeat a transaction while blocks arrive and a fork replaces the top', async () => {
    type Page = { data: { hash: string }[]; nextPath: string | null; next(): Promise<Page> };
    let current = (await v3.mdw.getTransactions({ direction: 'forward', limit: 3 })) as unknown as Page;
    const seen = current.data.map((t) => t.hash);
    await v3.spend(MemoryAccount.generate().address, 7);
    await v3.devnode.mineMicroBlock();
    await v3.devnode.mineKeyBlock();
    await v3.devnode.fork(1);
    await v3.spend(MemoryAccount.generate().address, 8);
    await v3.devnode.mineMicroBlock();
    await v3.synced();
    while (current.nextPath !== null) {
      current = await current.next();
      seen.push(...current.data.map((t) => t.hash));
    }
    const chain = await v3.truth();
    expect(seen).to.deep.equal(chain.transactions.map((t) => t.hash));
    expect(await v3.mdw.getTransactionsCount()).to.deep.equal({ body: chain.transactions.length });
  });

  it("lists the node's pending transactions and counts them", async () => {
    const hash = await v3.spend(MemoryAccount.generate().address, 3);
    const page = (await v3.get('/mdw/v3/transactions/pending')).body as { data: { hash: string; failures: number }[] };
    expect(page.data.map((t) => t.hash)).to.include(hash);
    expect(await v3.mdw.getPendingTransactionsCount()).to.deep.equal({ body: page.data.length });
    await v3.devnode.mineMicroBlock();
    expect(((await v3.get('/mdw/v3/transactions/pending')).body as { data: unknown[] }).data).to.deep.equal([]);
  });
});
