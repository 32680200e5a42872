/**
 * @module The replay's hand-over to the live events, against a scripted chain feed: every block of the chain from
 * the start height once, in chain order, when blocks arrive, a generation grows or a fork lands during the replay; and
 * no block a fork dropped once the feed has told the fork, none of the new chain before.
 * (The same against the devnode's chain and the real feed: test/integration/v3/websocket-replay.test.ts.)
 */
import { expect } from 'chai';
import type { ChainEvent } from '../../../src/events/events-source.ts';
import { parseMdwMessage } from '../../../src/events/mdw-protocol.ts';
import { Replay, replayRefusal, type ReplayFeed } from '../../../src/events/mdw-replay.ts';
import { SentBlocks } from '../../../src/events/sent-blocks.ts';

const MEMORY = 100;

/** A chain of key blocks, one per height, `kh_<height><suffix>`; a fork changes the suffix from a height on. */
class ScriptedChain implements ReplayFeed {
  blocks = new Map<number, string[]>();
  next = 0;
  /** blocks the feed delivered, or settled otherwise */
  readonly delivered = new SentBlocks();
  readonly reads: [number, number][] = [];
  /** what happens (a block mined, a fork) once a read from a height has taken its snapshot */
  readonly #whenReading = new Map<number, () => void>();
  frontierCalls = 0;
  replay: Replay | undefined;
  /** the last fork the feed told, and the last one committed (the database's reorg log) */
  reorgSeq = 0;
  committedSeq = 0;
  /** what the replay sent, each when the feed had told which fork */
  readonly told: { block: string; reorgSeq: number }[] = [];

  constructor(top: number) {
    for (let h = 0; h <= top; h++) this.blocks.set(h, [`kh_${h}`]);
    this.#deliver(0, top);
  }

  settled(height: number, block: string): boolean {
    return height < this.next && (height < this.next - MEMORY || this.delivered.has(height, block));
  }

  async atFrontier<T>(fn: () => Promise<T>): Promise<T> {
    this.frontierCalls += 1;
    return fn();
  }

  read = async (from: number, to: number): Promise<{ events: ChainEvent[]; reorgSeq: number }> => {
    this.reads.push([from, to]);
    const snapshot = { events: this.events(from, to), reorgSeq: this.committedSeq };
    this.#whenReading.get(from)?.();
    this.#whenReading.delete(from);
    return snapshot;
  };

  whenReading(from: number, act: () => void): void {
    this.#whenReading.set(from, act);
  }

  events(from: number, to: number): ChainEvent[] {
    const events: ChainEvent[] = [];
    for (let h = from; h <= to; h++)
      for (const block of this.blocks.get(h) ?? []) events.push({ type: 'key_block', height: h, block, payload: '{}' });
    return events;
  }

  /** commit stores blocks without the feed having read them yet */
  commit(height: number, block: string): void {
    this.blocks.set(height, [...(this.blocks.get(height) ?? []), block]);
  }

  /** feedCatchesUp delivers what is stored and not delivered, from `from` on, as the feed does after a notification */
  feedCatchesUp(from: number): void {
    const top = Math.max(...this.blocks.keys());
    this.#deliver(from, top);
  }

  /** fork replaces the blocks from `height` on, committed (with its reorg) but not delivered yet */
  fork(height: number, suffix: string): void {
    for (const h of this.blocks.keys()) if (h >= height) this.blocks.set(h, [`kh_${h}${suffix}`]);
    this.committedSeq += 1;
  }

  #deliver(from: number, to: number): void {
    // the feed tells the forks its read holds before it delivers their blocks
    if (this.committedSeq > this.reorgSeq) {
      this.reorgSeq = this.committedSeq;
      this.replay?.noteDelivered(from);
    }
    const fresh = this.delivered.unsent(this.events(from, to));
    this.next = Math.max(this.next, to + 1);
    if (fresh.length > 0) this.replay?.noteDelivered(fresh[0]!.height);
  }
}

/** replayOn runs a replay from `fromHeight` and returns the blocks sent and whether it went live. */
async function replayOn(chain: ScriptedChain, fromHeight: number): Promise<{ sent: string[]; live: boolean }> {
  const sent: string[] = [];
  let live = false;
  const replay = new Replay({
    fromHeight,
    feed: chain,
    read: chain.read,
    send: async (events, _wait, current) => {
      expect(live, 'nothing replayed after the hand-over').to.equal(false);
      for (const [i, e] of events.entries()) {
        if (!current()) return i;
        sent.push(e.block);
        chain.told.push({ block: e.block, reorgSeq: chain.reorgSeq });
      }
      return events.length;
    },
    goLive: () => (live = true),
    batchHeights: 10,
    memoryHeights: MEMORY,
  });
  chain.replay = replay;
  await replay.run();
  return { sent, live };
}

const range = (from: number, to: number, suffix = ''): string[] =>
  Array.from({ length: to - from + 1 }, (_, i) => `kh_${from + i}${suffix}`);

describe('replay from a height, then live', () => {
  it('sends every stored block from the height once, in bounded batches, then hands over once', async () => {
    const chain = new ScriptedChain(45);
    expect(await replayOn(chain, 3)).to.deep.equal({ sent: range(3, 45), live: true });
    for (const [from, to] of chain.reads) expect(to - from + 1).to.be.at.most(10);
    expect(chain.frontierCalls).to.equal(1);
  });

  it('leaves to the live events a block the feed has not delivered yet (a grown top generation)', async () => {
    const chain = new ScriptedChain(45);
    // a micro block grows generation 45 after the feed read it; its notification has not been handled yet
    chain.commit(45, 'mh_45');
    const { sent, live } = await replayOn(chain, 20);
    expect(live).to.equal(true);
    expect(sent).to.deep.equal(range(20, 45));
    // the feed will deliver it, to the client now live
    expect(chain.settled(45, 'mh_45')).to.equal(false);
  });

  it('hands over a block mined during the replay to the live events: not replayed', async () => {
    const chain = new ScriptedChain(45);
    chain.whenReading(10, () => {
      chain.commit(46, 'kh_46');
      chain.feedCatchesUp(46);
    });
    const { sent } = await replayOn(chain, 10);
    // 46 was delivered before the hand-over: the replay sends it, the feed will not again
    expect(sent).to.deep.equal(range(10, 46));
    chain.commit(47, 'kh_47');
    // 47 is not delivered yet: the live events carry it
    expect(chain.settled(47, 'kh_47')).to.equal(false);
  });

  it('after a fork during the replay, sends the new chain from the fork height on, each block once', async () => {
    const chain = new ScriptedChain(45);
    chain.whenReading(10, () => {
      // the read of 10..19 saw the old chain; then a fork replaces 15..45 and the feed tells it and delivers it
      chain.fork(15, 'b');
      chain.feedCatchesUp(15);
    });
    const { sent, live } = await replayOn(chain, 0);
    expect(live).to.equal(true);
    // the read of the old 15..19 is not sent once the fork is told: 10..19 are read again
    expect(sent).to.deep.equal([...range(0, 14), ...range(15, 45, 'b')]);
  });

  it('after a fork near the frontier, hands over from the fork height, not from where it had read to', async () => {
    const chain = new ScriptedChain(45);
    chain.whenReading(30, () => {
      chain.fork(38, 'b');
      chain.feedCatchesUp(38);
    });
    const { sent } = await replayOn(chain, 30);
    expect(sent).to.deep.equal([...range(30, 37), ...range(38, 45, 'b')]);
  });

  it('does not go below its start when a fork reaches deeper', async () => {
    const chain = new ScriptedChain(30);
    chain.whenReading(20, () => {
      chain.fork(5, 'b');
      chain.feedCatchesUp(5);
    });
    const { sent } = await replayOn(chain, 20);
    expect(sent).to.deep.equal(range(20, 30, 'b'));
  });

  it('sends none of a new chain its read holds before the feed has told the fork, and waits for it', async () => {
    const chain = new ScriptedChain(45);
    // committed, not yet read by the feed (its notification on the way, or a standby behind the primary)
    chain.fork(15, 'b');
    const running = replayOn(chain, 0);
    await new Promise((resolve) => setTimeout(resolve, 20));
    // every read holds the fork the feed has not told yet: nothing is sent meanwhile, not even the blocks below it
    expect(chain.told).to.deep.equal([]);
    expect(chain.reads.length).to.be.at.least(1);
    chain.feedCatchesUp(15);
    const { sent } = await running;
    expect(sent).to.deep.equal([...range(0, 14), ...range(15, 45, 'b')]);
    expect(chain.told.filter((t) => t.block.endsWith('b')).every((t) => t.reorgSeq === 1)).to.equal(true);
  });

  it('stops sending where a fork is told, and takes up there with a new read: nothing dropped after it, nothing twice', async () => {
    const chain = new ScriptedChain(45);
    const sent: string[] = [];
    const replay = new Replay({
      fromHeight: 0,
      feed: chain,
      read: chain.read,
      send: async (events, _wait, current) => {
        for (const [i, e] of events.entries()) {
          if (!current()) return i;
          sent.push(e.block);
          // the fork lands and is told while the batch 10..19 is half sent
          if (e.block === 'kh_12' && chain.committedSeq === 0) {
            chain.fork(15, 'b');
            chain.feedCatchesUp(15);
          }
        }
        return events.length;
      },
      goLive: () => {},
      batchHeights: 10,
      memoryHeights: MEMORY,
    });
    chain.replay = replay;
    await replay.run();
    expect(sent).to.deep.equal([...range(0, 14), ...range(15, 45, 'b')]);
  });

  it('starting at the top + 1 sends nothing and goes live; a cancelled replay never does', async () => {
    const chain = new ScriptedChain(45);
    expect(await replayOn(chain, 46)).to.deep.equal({ sent: [], live: true });
    const other = new ScriptedChain(45);
    let live = false;
    const replay: Replay = new Replay({
      fromHeight: 0,
      feed: other,
      read: other.read,
      send: async (events): Promise<number> => {
        replay.cancel();
        return events.length;
      },
      goLive: () => (live = true),
      batchHeights: 10,
      memoryHeights: MEMORY,
    });
    await replay.run();
    expect(live).to.equal(false);
    expect(other.reads).to.deep.equal([[0, 9]]);
  });

  it('reads the next batch only once the client has taken the last one (a slow reader slows its replay)', async () => {
    const chain = new ScriptedChain(45);
    let open: () => void = () => {};
    const waits: boolean[] = [];
    const replay = new Replay({
      fromHeight: 0,
      feed: chain,
      read: chain.read,
      send: (events, wait) => {
        waits.push(wait);
        return wait
          ? new Promise<number>((resolve) => (open = () => resolve(events.length)))
          : Promise.resolve(events.length);
      },
      goLive: () => {},
      batchHeights: 10,
      memoryHeights: MEMORY,
    });
    const running = replay.run();
    for (let batch = 1; batch <= 4; batch++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      expect(chain.reads, `while batch ${batch} is unsent`).to.have.length(batch);
      open();
    }
    await running;
    // the last heights, sent at the hand-over, do not wait: the feed delivers nothing meanwhile
    expect(waits).to.deep.equal([true, true, true, true, false]);
  });

  it('waits for the feed to reach its start when the database is ahead of it', async () => {
    const chain = new ScriptedChain(45);
    chain.commit(46, 'kh_46');
    const running = replayOn(chain, 47);
    await new Promise((resolve) => setTimeout(resolve, 20));
    chain.feedCatchesUp(46);
    expect(await running).to.deep.equal({ sent: [], live: true });
  });
});

describe('from_height: parsing and bounds', () => {
  const error = (message: object): unknown => (parseMdwMessage(JSON.stringify(message)) as { error?: string }).error;

  it('takes a non-negative integer on Subscribe, and ignores it on Unsubscribe as ae_mdw ignores unknown fields', () => {
    expect(parseMdwMessage('{"op":"Subscribe","payload":"KeyBlocks","from_height":0}')).to.deep.equal({
      ok: true,
      request: { op: 'Subscribe', channel: 'KeyBlocks', source: undefined, fromHeight: 0 },
    });
    expect(parseMdwMessage('{"op":"Unsubscribe","payload":"KeyBlocks","from_height":-1}')).to.deep.equal({
      ok: true,
      request: { op: 'Unsubscribe', channel: 'KeyBlocks', source: undefined },
    });
  });

  it('answers anything else with an error string', () => {
    for (const value of [-1, 1.5, '10', null, true, [], 2 ** 60])
      expect(error({ op: 'Subscribe', payload: 'KeyBlocks', from_height: value }), String(value)).to.equal(
        `invalid from_height: ${JSON.stringify(value)}`,
      );
  });

  it('refuses a start above the top + 1 or further back than the bound', () => {
    expect(replayRefusal(11, 10, 100)).to.equal(undefined);
    expect(replayRefusal(12, 10, 100)).to.equal('from_height above the top (10): 12');
    expect(replayRefusal(1, 100, 100)).to.equal(undefined);
    expect(replayRefusal(0, 100, 100)).to.equal('from_height further back than 100 heights from the top (100): 0');
  });
});

describe('SentBlocks', () => {
  it('keeps the events of blocks not sent before, a transaction with its micro block, and forgets low heights', () => {
    const sent = new SentBlocks();
    sent.remember(new Map([[1, ['kh_1']]]));
    const events: ChainEvent[] = [
      { type: 'key_block', height: 1, block: 'kh_1', payload: '{}' },
      { type: 'micro_block', height: 1, block: 'mh_1', payload: '{}' },
      { type: 'transaction', height: 1, hash: 'th_1', block: 'mh_1', payload: '{}', ids: [] },
      { type: 'key_block', height: 2, block: 'kh_2', payload: '{}' },
    ];
    expect(sent.unsent(events).map((e) => `${e.type} ${e.block}`)).to.deep.equal([
      'micro_block mh_1',
      'transaction mh_1',
      'key_block kh_2',
    ]);
    expect(sent.unsent(events)).to.deep.equal([]);
    sent.forgetBelow(2);
    expect([sent.has(1, 'mh_1'), sent.has(2, 'kh_2')]).to.deep.equal([false, true]);
  });

  it("notes a replay's events one by one, and forgets what a fork dropped, transactions with their block", () => {
    const sent = new SentBlocks();
    const events: ChainEvent[] = [
      { type: 'micro_block', height: 1, block: 'mh_1', payload: '{}' },
      { type: 'transaction', height: 1, hash: 'th_1', block: 'mh_1', payload: '{}', ids: [] },
      { type: 'transaction', height: 1, hash: 'th_2', block: 'mh_1', payload: '{}', ids: [] },
    ];
    sent.noteEvents(events.slice(0, 2));
    expect(sent.unsentEvents(events)).to.deep.equal([events[2]]);
    sent.forget(['mh_1']);
    expect(sent.unsentEvents(events)).to.deep.equal(events);
    // a fork that drops a block the feed sent makes it new again, should a later fork bring it back
    expect(sent.unsent(events)).to.have.length(3);
    sent.forget(['mh_1']);
    expect(sent.unsent(events)).to.have.length(3);
  });
});
