/** @module Websocket limits: slow clients are closed, the connection cap holds, dead peers are dropped. */
import { expect } from 'chai';
import prom from 'prom-client';
import { MemoryAccount } from '@aeternity/aepp-sdk';
import { CLOSE_TOO_SLOW } from '../../../src/events/hub.ts';
import { CLOSE_TOO_MANY_CONNECTIONS, startWebsocketServer } from '../../../src/events/ws-server.ts';
import type { Role } from '../../../src/base/roles.ts';
import { createPopulator, spendTx, type TxSpec } from './chain-writer.ts';
import { createEventsFixture, testConfig, type EventsFixture, type TestClient } from './ws-client.ts';

const SCHEMA = 'mdw_ws_limits';
const MAX_BUFFERED = 64 * 1024;

describe('websocket limits (real PostgreSQL, real sockets)', () => {
  let fixture: EventsFixture;
  let server: Role & { url: string };
  let registry: prom.Registry;
  const client = (): Promise<TestClient> => fixture.open(server.url);

  async function metric(name: string): Promise<number> {
    const values = (await registry.getSingleMetric(name)?.get())?.values ?? [];
    return values.reduce((sum, v) => sum + v.value, 0);
  }

  before(async () => {
    fixture = await createEventsFixture(SCHEMA);
    registry = new prom.Registry();
    const cfg = testConfig(fixture.databaseUrl, SCHEMA, {
      WEBSOCKET_MAX_CONNECTIONS: '4',
      WEBSOCKET_MAX_BUFFERED_BYTES: String(MAX_BUFFERED),
    });
    server = await startWebsocketServer({ cfg, log: fixture.log, pool: fixture.pool, registry });
  });

  after(async () => {
    await server?.stop();
    await fixture?.close();
  });

  it('closes a client that stops reading with 1013 and a reason, while a reading client gets everything', async function () {
    this.timeout(60_000);
    const slow = await client();
    const fast = await client();
    await slow.request({ op: 'subscribe', payload: 'transactions' });
    await fast.request({ op: 'subscribe', payload: 'transactions' });
    // The slow client stops reading: the server's unsent bytes grow past the kernel's buffers.
    (slow.ws as unknown as { _socket: { pause(): void; resume(): void } })._socket.pause();
    const [a, b] = [MemoryAccount.generate().address, MemoryAccount.generate().address];
    const heavy: TxSpec[] = Array.from({ length: 40 }, () => spendTx(a, b, 20_000));
    const heights = 12;
    const populator = createPopulator(fixture.pool, SCHEMA, 1);
    for (let i = 0; i < heights; i += 1) await populator.commit([heavy]);
    let received = 0;
    while (received < heights * heavy.length) {
      const message = await fast.next(20_000);
      expect(message).to.deep.include({ subscription: 'transactions' });
      received += 1;
    }
    expect(await metric('mdw_ws_slow_clients_closed_total')).to.equal(1);
    (slow.ws as unknown as { _socket: { resume(): void } })._socket.resume();
    const closed = await slow.closed;
    expect(closed.code).to.equal(CLOSE_TOO_SLOW);
    expect(closed.reason).to.match(/too slow/);
  });

  it('refuses connections beyond the maximum with 1013, and accepts again once one closes', async () => {
    const open = await Promise.all(Array.from({ length: 4 }, () => client()));
    const refused = await client();
    expect((await refused.closed).code).to.equal(CLOSE_TOO_MANY_CONNECTIONS);
    expect(await metric('mdw_ws_connections_refused_total')).to.be.at.least(1);
    open[0]!.ws.close();
    await open[0]!.closed;
    const accepted = await client();
    expect(await accepted.request({ op: 'subscribe', payload: 'key_blocks' })).to.deep.equal(['key_blocks']);
    for (const c of [...open, accepted]) c.ws.close();
    await Promise.all([...open, accepted].map((c) => c.closed));
  });

  it('reads a flood of messages sent in one write one per turn of the event loop, not all in one', async function () {
    this.timeout(60_000);
    const flooder = await client();
    const count = 1000;
    // masked text frames (a zero mask leaves the payload as written), all in one write
    const payload = Buffer.from('{"op":"subscribe","payload":"nope"}');
    const frame = Buffer.concat([Buffer.from([0x81, 0x80 | payload.length, 0, 0, 0, 0]), payload]);
    let answers = 0;
    const answered = new Promise<void>((resolve) =>
      flooder.ws.on('message', () => {
        if (++answers === count) resolve();
      }),
    );
    // the turns of this process's event loop, which the server shares, until the last answer
    let turns = 0;
    let counting = true;
    const tick = (): void => {
      turns += 1;
      if (counting) setImmediate(tick);
    };
    setImmediate(tick);
    (flooder.ws as unknown as { _socket: { write(b: Buffer): void } })._socket.write(
      Buffer.concat(Array.from({ length: count }, () => frame)),
    );
    await answered;
    counting = false;
    // read all at once, the flood held the loop for one turn (a few, with the answers' reads)
    expect(turns).to.be.at.least(count / 2);
    flooder.ws.close();
    await flooder.closed;
  });

  it('terminates a peer that does not answer pings, and keeps one that does', async () => {
    const ownRegistry = new prom.Registry();
    const pinging = await startWebsocketServer({
      cfg: testConfig(fixture.databaseUrl, SCHEMA),
      log: fixture.log,
      pool: fixture.pool,
      registry: ownRegistry,
      heartbeatIntervalMs: 100,
    });
    try {
      const deaf = await fixture.open(pinging.url, { autoPong: false });
      const healthy = await fixture.open(pinging.url);
      const closed = await deaf.closed;
      expect(closed.code).to.equal(1006);
      const terminated = await ownRegistry.getSingleMetric('mdw_ws_dead_peers_terminated_total')?.get();
      expect(terminated?.values[0]?.value).to.equal(1);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(await healthy.request({ op: 'subscribe', payload: 'micro_blocks' })).to.deep.equal(['micro_blocks']);
    } finally {
      await pinging.stop();
    }
  });
});
