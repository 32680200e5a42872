/** @module Tests of the hub's fan-out with in-memory peers: routing, spelling, one object message, slow peers. */
import { expect } from 'chai';
import prom from 'prom-client';
import { Encoding, MemoryAccount, encode } from '@aeternity/aepp-sdk';
import type { ChainEvent } from '../../../src/events/events-source.ts';
import { decodeTextFrames } from '../../../src/events/frame.ts';
import { CLOSE_TOO_SLOW, Hub, type Peer } from '../../../src/events/hub.ts';
import { createWebsocketMetrics } from '../../../src/events/metrics.ts';
import { reorgNotice } from '../../../src/events/reorg-notice.ts';
import { createLogger } from '../../../src/base/log.ts';

class FakePeer implements Peer {
  readonly frames: string[] = [];
  bufferedAmount = 0;
  closedWith: { code: number; reason: string } | undefined;
  readonly writes: Buffer[] = [];
  send(data: string): void {
    this.frames.push(data);
  }
  sendEncoded(bytes: Buffer): void {
    this.writes.push(bytes);
    this.frames.push(...decodeTextFrames(bytes));
  }
  close(code: number, reason: string): void {
    this.closedWith = { code, reason };
  }
  messages(): unknown[] {
    return this.frames.map((f) => JSON.parse(f));
  }
}

const log = createLogger({ logDir: undefined, logLevel: 'silent', logPretty: false }).log;
const account = MemoryAccount.generate().address;
const oracle = encode(Buffer.alloc(32, 3), Encoding.OracleAddress);

const keyBlock: ChainEvent = { type: 'key_block', height: 5, block: 'kh_1', payload: '{"height":5}' };
const microBlock: ChainEvent = { type: 'micro_block', height: 5, block: 'mh_1', payload: '{"hash":"mh_1"}' };
const tx: ChainEvent = {
  type: 'transaction',
  height: 5,
  hash: 'th_1',
  block: 'mh_1',
  payload: '{"hash":"th_1"}',
  ids: [account, oracle],
};

function setup(maxBufferedBytes = 1000): { hub: Hub; registry: prom.Registry } {
  const registry = new prom.Registry();
  return { hub: new Hub({ maxBufferedBytes, metrics: createWebsocketMetrics(registry), log }), registry };
}

function connect(hub: Hub, ...messages: object[]): FakePeer {
  const peer = new FakePeer();
  hub.add(peer);
  for (const m of messages) hub.receive(peer, JSON.stringify(m));
  peer.frames.length = 0;
  return peer;
}

describe('Hub', () => {
  it('tells the reorgs subscribers of a fork, in their spelling, and nobody else', () => {
    const { hub } = setup();
    const snake = connect(hub, { op: 'subscribe', payload: 'reorgs' }, { op: 'subscribe', payload: 'key_blocks' });
    const pascal = connect(hub, { op: 'subscribe', payload: 'Reorgs' });
    const blocks = connect(hub, { op: 'subscribe', payload: 'key_blocks' });
    const notice = reorgNotice(
      { seq: 3, fromHeight: 4, dropped: ['kh_4', 'mh_4'], top: { height: 5, hash: 'kh_5' } },
      4,
    );
    hub.tell([notice]);
    const payload = { height: 4, dropped: ['kh_4', 'mh_4'], top: { height: 5, hash: 'kh_5' }, resent_from: 4 };
    expect(snake.messages()).to.deep.equal([{ payload, subscription: 'reorgs' }]);
    expect(pascal.messages()).to.deep.equal([{ payload, subscription: 'Reorgs' }]);
    expect(blocks.messages()).to.deep.equal([]);
    // a fork that left nothing stored has no top; deeper than the memory, it is resent from higher up
    const emptied = reorgNotice({ seq: 4, fromHeight: 0, dropped: ['kh_0'] }, 2);
    expect(JSON.parse(emptied.payload)).to.deep.equal({ height: 0, dropped: ['kh_0'], top: null, resent_from: 2 });
  });

  it('routes each event kind to its subscribers only, in order', async () => {
    const { hub } = setup();
    const blocks = connect(
      hub,
      { op: 'subscribe', payload: 'key_blocks' },
      { op: 'subscribe', payload: 'micro_blocks' },
    );
    const txs = connect(hub, { op: 'subscribe', payload: 'transactions' });
    const nobody = connect(hub);
    await hub.publish([keyBlock, microBlock, tx], 0);
    expect(blocks.messages()).to.deep.equal([
      { payload: { height: 5 }, subscription: 'key_blocks' },
      { payload: { hash: 'mh_1' }, subscription: 'micro_blocks' },
    ]);
    expect(txs.messages()).to.deep.equal([{ payload: { hash: 'th_1' }, subscription: 'transactions' }]);
    expect(nobody.frames).to.deep.equal([]);
    // One write per client for the whole height.
    expect([blocks.writes.length, txs.writes.length]).to.deep.equal([1, 1]);
  });

  it('writes each height separately, in chain order', async () => {
    const { hub } = setup();
    const peer = connect(hub, { op: 'subscribe', payload: 'key_blocks' });
    const next: ChainEvent = { type: 'key_block', height: 6, block: 'kh_2', payload: '{"height":6}' };
    await hub.publish([keyBlock, next], 0);
    expect(peer.messages().map((m) => (m as { payload: { height: number } }).payload.height)).to.deep.equal([5, 6]);
    expect(peer.writes).to.have.length(2);
  });

  it('writes the same buffer to clients with the same subscriptions, and a spelling of their own to others', async () => {
    const { hub, registry } = setup();
    const subscribe = (payload: string, op = 'subscribe'): object => ({ op, payload });
    const a = connect(hub, subscribe('key_blocks'), subscribe('transactions'));
    const b = connect(hub, subscribe('transactions'), subscribe('key_blocks'));
    const original = connect(hub, subscribe('KeyBlocks', 'Subscribe'), subscribe('Transactions', 'Subscribe'));
    const blocksOnly = connect(hub, subscribe('key_blocks'));
    await hub.publish([keyBlock, microBlock, tx], 0);
    expect(a.writes).to.have.length(1);
    expect(b.writes[0]).to.equal(a.writes[0]);
    expect(a.messages()).to.deep.equal([
      { payload: { height: 5 }, subscription: 'key_blocks' },
      { payload: { hash: 'th_1' }, subscription: 'transactions' },
    ]);
    expect(original.writes[0]).to.not.equal(a.writes[0]);
    expect(original.messages()).to.deep.equal([
      { payload: { height: 5 }, subscription: 'KeyBlocks' },
      { payload: { hash: 'th_1' }, subscription: 'Transactions' },
    ]);
    expect(blocksOnly.messages()).to.deep.equal([{ payload: { height: 5 }, subscription: 'key_blocks' }]);
    const sent = await registry.getSingleMetric('mdw_ws_messages_sent_total')?.get();
    const bySubscription = Object.fromEntries((sent?.values ?? []).map((v) => [v.labels.subscription, v.value]));
    expect(bySubscription).to.deep.equal({ key_blocks: 4, transactions: 3 });
  });

  it('sends an included transaction to tx_update subscribers too', async () => {
    const { hub } = setup();
    const updates = connect(hub, { op: 'Subscribe', payload: 'TxUpdate' });
    await hub.publish([keyBlock, tx], 0);
    expect(updates.messages()).to.deep.equal([{ payload: { hash: 'th_1' }, subscription: 'TxUpdate' }]);
    hub.publishPending(['{"hash":"th_2","block_height":-1}']);
    expect(updates.messages()[1]).to.deep.equal({
      payload: { hash: 'th_2', block_height: -1 },
      subscription: 'TxUpdate',
    });
  });

  it('sends one object message per transaction to a client holding several matching targets', async () => {
    const { hub } = setup();
    const both = connect(
      hub,
      { op: 'Subscribe', payload: 'Object', target: oracle },
      { op: 'Subscribe', payload: 'Object', target: account },
    );
    await hub.publish([tx], 0);
    expect(both.messages()).to.deep.equal([{ payload: { hash: 'th_1' }, subscription: 'Object' }]);
  });

  it('stops routing to a client after unsubscribe and after remove', async () => {
    const { hub } = setup();
    const peer = connect(
      hub,
      { op: 'subscribe', payload: 'object', target: account },
      { op: 'subscribe', payload: 'key_blocks' },
    );
    hub.receive(peer, JSON.stringify({ op: 'unsubscribe', payload: 'object', target: account }));
    expect(peer.messages()).to.deep.equal([['key_blocks']]);
    await hub.publish([tx], 0);
    expect(peer.frames).to.have.length(1);
    expect(hub.hasAnySubscription()).to.equal(true);
    hub.remove(peer);
    expect(hub.size).to.equal(0);
    expect(hub.hasSubscribers('key_blocks')).to.equal(false);
    expect(hub.hasAnySubscription()).to.equal(false);
  });

  it('closes a peer whose unsent bytes exceed the limit, and sends it nothing more', async () => {
    const { hub, registry } = setup(1000);
    const slow = connect(hub, { op: 'subscribe', payload: 'key_blocks' });
    const fast = connect(hub, { op: 'subscribe', payload: 'key_blocks' });
    slow.bufferedAmount = 1001;
    const next: ChainEvent = { type: 'key_block', height: 6, block: 'kh_2', payload: '{"height":6}' };
    await hub.publish([keyBlock, next], 0);
    expect(slow.frames).to.deep.equal([]);
    expect(slow.closedWith?.code).to.equal(CLOSE_TOO_SLOW);
    expect(slow.closedWith?.reason).to.match(/too slow/);
    expect(Buffer.byteLength(slow.closedWith!.reason)).to.be.at.most(123);
    expect(fast.frames).to.have.length(2);
    const closed = await registry.getSingleMetric('mdw_ws_slow_clients_closed_total')?.get();
    expect(closed?.values[0]?.value).to.equal(1);
  });

  it('bounds the unsent bytes of all clients together: a storm of clients that never read cannot hold more', async () => {
    const registry = new prom.Registry();
    const [perClient, total] = [4000, 10_000];
    const hub = new Hub({
      maxBufferedBytes: perClient,
      maxTotalBufferedBytes: total,
      metrics: createWebsocketMetrics(registry),
      log,
    });
    /** a client that never reads: every write stays buffered until its socket is ended, which frees it all */
    class NeverReads extends FakePeer {
      override sendEncoded(bytes: Buffer): void {
        super.sendEncoded(bytes);
        this.bufferedAmount += bytes.length;
      }
      override close(code: number, reason: string): void {
        super.close(code, reason);
        this.bufferedAmount = 0;
      }
    }
    const storm = Array.from({ length: 40 }, () => {
      const peer = new NeverReads();
      hub.add(peer);
      hub.receive(peer, JSON.stringify({ op: 'subscribe', payload: 'key_blocks' }));
      return peer;
    });
    const reader = connect(hub, { op: 'subscribe', payload: 'key_blocks' });
    let peak = 0;
    for (let height = 1; height <= 60; height++) {
      const payload = JSON.stringify({ height, filler: 'x'.repeat(300) });
      await hub.publish([{ type: 'key_block', height, block: `kh_${height}`, payload }], 0);
      peak = Math.max(
        peak,
        storm.reduce((sum, p) => sum + p.bufferedAmount, 0),
      );
    }
    // without the total bound, 40 clients would hold 40 × 4000 bytes before each was closed on its own
    expect(peak).to.be.at.most(total);
    expect(storm.every((p) => p.closedWith?.code === CLOSE_TOO_SLOW)).to.equal(true);
    expect(reader.closedWith).to.equal(undefined);
    expect(reader.frames).to.have.length(60);
  });

  it('answers errors without changing subscriptions', () => {
    const { hub } = setup();
    const peer = connect(hub, { op: 'subscribe', payload: 'key_blocks' });
    hub.receive(peer, '{"op":"subscribe","payload":"nope"}');
    hub.receive(peer, JSON.stringify({ op: 'subscribe', payload: 'micro_blocks' }));
    expect(peer.messages()[0]).to.have.property('error');
    expect(peer.messages()[1]).to.deep.equal(['key_blocks', 'micro_blocks']);
  });
});
