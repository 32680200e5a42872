/**
 * @module The live ae_mdw websocket reads a feed's chunk, with the payloads of both protocols, with a bounded number of
 * statements in one snapshot, whatever its number of transactions, and its payloads are the REST API's answers byte for
 * byte (v2: the node's transaction and its txi).
 */
import { expect } from 'chai';
import { parseJson, type Json } from '../../../src/chain/json.ts';
import type { Pool } from '../../../src/db/connection/pool.ts';
import { txiOfHash } from '../../../src/db/queries/txis.ts';
import { readChainChunk, readChainEvents, type ChainEvent } from '../../../src/events/events-source.ts';
import { MdwHub, type MdwPeer, type MdwReplaySource } from '../../../src/events/mdw-hub.ts';
import { silentLog } from '../api/harness.ts';
import { startV3, type V3UnderTest } from './harness.ts';

/** A client of the hub that keeps what it is sent. */
class Peer implements MdwPeer {
  readonly frames: string[] = [];
  readonly version: 'v2' | 'v3';
  constructor(version: 'v2' | 'v3') {
    this.version = version;
  }
  send(text: string): void {
    this.frames.push(text);
  }
  writable(): Promise<void> {
    return Promise.resolve();
  }
  pause(): void {}
  resume(): void {}
}

/** countingPool is the pool with a count of the statements sent through it (and its connections) to PostgreSQL. */
function countingPool(pool: Pool): { pool: Pool; statements: () => number } {
  let statements = 0;
  const counted = <T extends object>(target: T): T =>
    new Proxy(target, {
      get(t, key) {
        if (key === 'query')
          return (...args: unknown[]) => {
            statements++;
            return (t as unknown as { query: (...a: unknown[]) => unknown }).query(...args);
          };
        if (key === 'connect') return async () => counted(await (t as unknown as Pool).connect());
        const value: unknown = Reflect.get(t, key);
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(t) : value;
      },
    });
  return { pool: counted(pool), statements: () => statements };
}

/** payloadText is the payload of a frame as sent: the text between `{"payload":` and its source (mdwEvent). */
function payloadText(frame: string): string {
  return frame.slice('{"payload":'.length, frame.lastIndexOf(',"source":'));
}

describe('the live ae_mdw websocket reads a chunk once, one statement per kind (a real PostgreSQL)', function () {
  this.timeout(180_000);
  let v3: V3UnderTest;
  let best: number;
  let events: ChainEvent[];
  before(async () => {
    v3 = await startV3(12, 'v3-ws-render');
    // the feed's chunk of ten heights with the most transactions
    const all = await readChainEvents(v3.pool, 0, v3.devnode.height());
    const top = v3.devnode.height();
    best = 0;
    for (let from = 0; from + 9 <= top; from++) {
      const txs = (f: number): number =>
        all.filter((e) => e.type === 'transaction' && e.height >= f && e.height <= f + 9).length;
      if (txs(from) > txs(best)) best = from;
    }
    events = await readChainEvents(v3.pool, best, best + 9);
    expect(events.filter((e) => e.type === 'transaction').length, 'transactions in the chunk').to.be.at.least(10);
  });
  after(async () => {
    await v3?.close();
  });

  /**
   * published subscribes v3 and v2 clients to every channel's mdw source, then reads the chunk as the live feed does (in
   * its snapshot, for what the hub wants) and publishes it, counting the statements of both.
   */
  async function published(): Promise<{ v3: Peer; v2: Peer; statements: number }> {
    const counted = countingPool(v3.pool);
    const hub = new MdwHub({
      log: silentLog,
      limits: { maxSubscriptions: 100, maxTotalSubscriptions: 1000, pingLimit: 100 },
      replay: {} as MdwReplaySource,
    });
    const peers = { v3: new Peer('v3'), v2: new Peer('v2') };
    for (const peer of Object.values(peers)) {
      hub.add(peer);
      for (const payload of ['KeyBlocks', 'MicroBlocks', 'Transactions'])
        hub.receive(peer, JSON.stringify({ op: 'Subscribe', payload, source: 'mdw' }));
      while (peer.frames.length < 3) await new Promise((resolve) => setImmediate(resolve));
      peer.frames.length = 0;
    }
    const chunk = await readChainChunk(counted.pool, best, best + 9, { afterSeq: 0, wants: hub.wants() });
    expect(chunk.events.map((e) => e.payload)).to.deep.equal(events.map((e) => e.payload));
    hub.publish(chunk.events);
    return { ...peers, statements: counted.statements() };
  }

  it('sends every event of a chunk with many transactions for at most one statement per kind', async () => {
    const { v3: peer, v2, statements } = await published();
    expect(peer.frames).to.have.length(events.length);
    expect(v2.frames).to.have.length(events.length);
    // one snapshot (BEGIN, COMMIT) holding key blocks, micro blocks, transactions, their ids, their txis, the reorg log,
    // and at most the names and channel parties they show: the statements of a chunk do not grow with its
    // transactions (two a transaction at first, then 13 in two reads, the second outside the snapshot)
    expect(statements).to.be.at.most(10);
  });

  it("sends each payload as the REST API answers it, the v2 transaction as the node's with its txi", async () => {
    const { v3: peer, v2 } = await published();
    for (const [i, event] of events.entries()) {
      const path =
        event.type === 'transaction'
          ? `/mdw/v3/transactions/${event.hash}`
          : `/mdw/v3/${event.type === 'key_block' ? 'key' : 'micro'}-blocks/${event.block}`;
      expect(payloadText(peer.frames[i]!), path).to.equal((await v3.get(path)).text);
      if (event.type !== 'transaction') continue;
      const { tx_index: txIndex, ...signed } = parseJson(payloadText(v2.frames[i]!)) as { [key: string]: Json };
      const node = (await v3.nodeGet(`/v2/transactions/${event.hash}`)) as { [key: string]: Json };
      const v3Tx = parseJson(payloadText(peer.frames[i]!)) as { [key: string]: Json };
      expect(signed).to.deep.equal({ ...node, micro_index: v3Tx.micro_index, micro_time: v3Tx.micro_time });
      expect(txIndex).to.equal(await txiOfHash(v3.pool, event.hash));
    }
  });
});
