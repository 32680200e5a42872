/** @module Tests of the ae_mdw hub's reading of a client's messages: in turns of the event loop, paced by pausing. */
import { expect } from 'chai';
import { MAX_WAITING_MESSAGES, MdwHub, type MdwPeer, type MdwReplaySource } from '../../../src/events/mdw-hub.ts';
import { createLogger } from '../../../src/base/log.ts';

class FakePeer implements MdwPeer {
  readonly version = 'v3';
  readonly frames: string[] = [];
  readonly pacing: ('pause' | 'resume')[] = [];
  send(text: string): void {
    this.frames.push(text);
  }
  writable(): Promise<void> {
    return Promise.resolve();
  }
  pause(): void {
    this.pacing.push('pause');
  }
  resume(): void {
    this.pacing.push('resume');
  }
}

const log = createLogger({ logDir: undefined, logLevel: 'silent', logPretty: false }).log;

function setup(): { hub: MdwHub; peer: FakePeer } {
  // messages without from_height read neither the chain nor the database
  const unused = {} as MdwReplaySource;
  const hub = new MdwHub({
    log,
    limits: { maxSubscriptions: 100_000, maxTotalSubscriptions: 2_000_000, pingLimit: 1000 },
    replay: unused,
  });
  const peer = new FakePeer();
  hub.add(peer);
  return { hub, peer };
}

/** drained resolves once the hub has answered `count` messages, leaving turns of the event loop between. */
async function drained(peer: FakePeer, count: number): Promise<void> {
  while (peer.frames.length < count) await new Promise((resolve) => setImmediate(resolve));
}

describe('MdwHub reading a flooding client', () => {
  it('answers a flood in turns of the event loop, so other I/O is served between its messages', async () => {
    const { hub, peer } = setup();
    for (let i = 0; i < 200; i++) hub.receive(peer, '{"op":"Subscribe","payload":"Object","target":"ak_0"}');
    let answeredAtNextTurn = -1;
    setImmediate(() => (answeredAtNextTurn = peer.frames.length));
    await drained(peer, 200);
    expect(answeredAtNextTurn).to.be.within(0, 10);
    expect(peer.frames[199]).to.equal('"invalid target: ak_0"');
  });

  it('pauses the client while too many of its messages wait, and reads it again once they are answered', async () => {
    const { hub, peer } = setup();
    for (let i = 0; i < MAX_WAITING_MESSAGES - 1; i++) hub.receive(peer, '{"op":"Ping"}');
    expect(peer.pacing).to.deep.equal([]);
    for (let i = 0; i < 500; i++) hub.receive(peer, '{"op":"Ping"}');
    expect(peer.pacing).to.deep.equal(['pause']);
    await drained(peer, MAX_WAITING_MESSAGES + 499);
    expect(peer.pacing).to.deep.equal(['pause', 'resume']);
    expect(JSON.parse(peer.frames.at(-1)!)).to.deep.equal({ payload: 'Pong', subscriptions: [], count: 0 });
  });
});

describe('MdwHub wants', () => {
  it("asks a chunk's read for ae_mdw's payloads only while a block or transaction has the mdw source, for epochs while one is subscribed", async () => {
    const { hub, peer } = setup();
    const answered = (n: number): Promise<void> => drained(peer, n);
    expect(hub.wants()).to.deep.equal({ mdw: false, epochs: false });
    hub.receive(peer, '{"op":"Subscribe","payload":"KeyBlocks","source":"node"}');
    hub.receive(peer, '{"op":"Subscribe","payload":"Epochs"}');
    await answered(2);
    expect(hub.wants()).to.deep.equal({ mdw: false, epochs: true });
    hub.receive(peer, '{"op":"Subscribe","payload":"Transactions","source":"mdw"}');
    await answered(3);
    expect(hub.wants()).to.deep.equal({ mdw: true, epochs: true });
    hub.receive(peer, '{"op":"Unsubscribe","payload":"Transactions","source":"mdw"}');
    hub.receive(peer, '{"op":"Unsubscribe","payload":"Epochs"}');
    await answered(5);
    expect(hub.wants()).to.deep.equal({ mdw: false, epochs: false });
  });
});
