/** @module ae_mdw's websocket limits on /v3/websocket: connections in all and per address, subscriptions, Ping's sample. */
import { expect } from 'chai';
import prom from 'prom-client';
import { MemoryAccount } from '@aeternity/aepp-sdk';
import { CLOSE_TOO_MANY_CONNECTIONS, startWebsocketServer } from '../../../src/events/ws-server.ts';
import type { Role } from '../../../src/base/roles.ts';
import { createEventsFixture, testConfig, type EventsFixture, type TestClient } from './ws-client.ts';

const SCHEMA = 'mdw_mdw_ws_limits';

describe("ae_mdw's websocket limits (real PostgreSQL, real sockets)", () => {
  let fixture: EventsFixture;
  let server: Role & { url: string };
  let registry: prom.Registry;
  // 127.0.0.0/8 is loopback: a second source address on the same machine
  const from = (address: string): Promise<TestClient> =>
    fixture.open(`${server.url}/v3/websocket`, { localAddress: address });
  const closeAll = async (clients: TestClient[]): Promise<void> => {
    for (const c of clients) c.ws.close();
    await Promise.all(clients.map((c) => c.closed));
  };

  before(async () => {
    fixture = await createEventsFixture(SCHEMA);
    registry = new prom.Registry();
    const cfg = testConfig(fixture.databaseUrl, SCHEMA, {
      WEBSOCKET_MDW_MAX_CONNECTIONS: '3',
      WEBSOCKET_MDW_MAX_CONNECTIONS_PER_IP: '2',
      WEBSOCKET_MDW_MAX_SUBSCRIPTIONS: '3',
      WEBSOCKET_MDW_MAX_TOTAL_SUBSCRIPTIONS: '4',
      WEBSOCKET_MDW_PING_LIMIT: '2',
    });
    server = await startWebsocketServer({ cfg, log: fixture.log, pool: fixture.pool, registry });
  });

  after(async () => {
    await server?.stop();
    await fixture?.close();
  });

  it('closes a connection beyond the per-address limit with 1013, and one beyond the total', async () => {
    const refusedBefore = (await registry.getSingleMetric('mdw_ws_connections_refused_total')?.get())?.values[0]?.value;
    const first = [await from('127.0.0.1'), await from('127.0.0.1')];
    const third = await from('127.0.0.1');
    expect(await third.closed).to.deep.equal({
      code: CLOSE_TOO_MANY_CONNECTIONS,
      reason: 'too many connections from your address (2); try again later',
    });
    // another address still gets in, up to the total
    const other = await from('127.0.0.2');
    expect(await other.request({ op: 'Subscribe', payload: 'KeyBlocks' })).to.deep.equal(['KeyBlocks']);
    const beyond = await from('127.0.0.3');
    expect(await beyond.closed).to.deep.equal({
      code: CLOSE_TOO_MANY_CONNECTIONS,
      reason: 'too many connections (3); try again later',
    });
    const refused = (await registry.getSingleMetric('mdw_ws_connections_refused_total')?.get())?.values[0]?.value;
    expect((refused ?? 0) - (refusedBefore ?? 0)).to.equal(2);
    // a closed connection frees its place, for its address too
    await closeAll([first[0]!]);
    const again = await from('127.0.0.1');
    expect(await again.request({ op: 'Ping' })).to.deep.equal({ payload: 'Pong', subscriptions: [], count: 0 });
    await closeAll([first[1]!, other, again]);
  });

  it("refuses subscriptions beyond a connection's and the server's limit with ae_mdw's message", async () => {
    const targets = Array.from({ length: 3 }, () => MemoryAccount.generate().address);
    const a = await from('127.0.0.1');
    expect(await a.request({ op: 'Subscribe', payload: 'KeyBlocks' })).to.deep.equal(['KeyBlocks']);
    expect(await a.request({ op: 'Subscribe', payload: 'MicroBlocks' })).to.deep.equal(['KeyBlocks', 'MicroBlocks']);
    expect(await a.request({ op: 'Subscribe', payload: 'Object', target: targets[0] })).to.have.length(3);
    expect(await a.request({ op: 'Subscribe', payload: 'Transactions' })).to.equal(
      'too many subscriptions! discarding: Transactions',
    );
    // another source of a channel held is no new subscription
    expect(await a.request({ op: 'Subscribe', payload: 'Object', target: targets[0], source: 'node' })).to.equal(
      `already subscribed to target: ${targets[0]}`,
    );
    const b = await from('127.0.0.2');
    expect(await b.request({ op: 'Subscribe', payload: 'Object', target: targets[1] })).to.deep.equal([targets[1]]);
    // four held in all: the server's limit
    expect(await b.request({ op: 'Subscribe', payload: 'Object', target: targets[2] })).to.equal(
      `too many subscriptions! discarding: ${targets[2]}`,
    );
    // an unsubscribe, or a connection closed, makes room again
    expect(await a.request({ op: 'Unsubscribe', payload: 'MicroBlocks' })).to.deep.equal(['KeyBlocks', targets[0]]);
    expect(await b.request({ op: 'Subscribe', payload: 'Object', target: targets[2] })).to.deep.equal([
      targets[1],
      targets[2],
    ]);
    await closeAll([a]);
    expect(await b.request({ op: 'Subscribe', payload: 'KeyBlocks' })).to.deep.equal([
      targets[1],
      targets[2],
      'KeyBlocks',
    ]);
    await closeAll([b]);
  });

  it('answers Ping with a sample of at most the ping limit, the true count and has_more', async () => {
    const c = await from('127.0.0.1');
    const target = MemoryAccount.generate().address;
    await c.request({ op: 'Subscribe', payload: 'KeyBlocks' });
    expect(await c.request({ op: 'Ping' })).to.deep.equal({ payload: 'Pong', subscriptions: ['KeyBlocks'], count: 1 });
    await c.request({ op: 'Subscribe', payload: 'Transactions' });
    expect(await c.request({ op: 'Ping' })).to.deep.equal({
      payload: 'Pong',
      subscriptions: ['KeyBlocks', 'Transactions'],
      count: 2,
    });
    await c.request({ op: 'Subscribe', payload: 'Object', target });
    expect(await c.request({ op: 'Ping' })).to.deep.equal({
      payload: 'Pong',
      subscriptions: ['KeyBlocks', 'Transactions'],
      count: 3,
      has_more: true,
    });
    await closeAll([c]);
  });
});

describe("ae_mdw's per-address limit behind a trusted proxy (TRUSTED_PROXIES, real sockets)", () => {
  let fixture: EventsFixture;
  let server: Role & { url: string };
  // 127.0.0.1 plays the ingress: a client reaching it from 198.51.100.x is named in X-Forwarded-For
  const through = (proxy: string, forwardedFor?: string): Promise<TestClient> =>
    fixture.open(`${server.url}/v3/websocket`, {
      localAddress: proxy,
      ...(forwardedFor === undefined ? {} : { headers: { 'X-Forwarded-For': forwardedFor } }),
    });
  const refusal = {
    code: CLOSE_TOO_MANY_CONNECTIONS,
    reason: 'too many connections from your address (2); try again later',
  };
  const ping = { payload: 'Pong', subscriptions: [], count: 0 };

  before(async () => {
    fixture = await createEventsFixture(`${SCHEMA}_proxy`);
    const cfg = testConfig(fixture.databaseUrl, `${SCHEMA}_proxy`, {
      WEBSOCKET_MDW_MAX_CONNECTIONS_PER_IP: '2',
      TRUSTED_PROXIES: '127.0.0.1',
    });
    server = await startWebsocketServer({ cfg, log: fixture.log, pool: fixture.pool, registry: new prom.Registry() });
  });

  after(async () => {
    await server?.stop();
    await fixture?.close();
  });

  it("counts each client behind the proxy by its forwarded address, not the proxy's", async () => {
    const a = [await through('127.0.0.1', '198.51.100.1'), await through('127.0.0.1', '198.51.100.1')];
    // the client's own claim (left) is not believed: the proxy appended the address it saw (right)
    const third = await through('127.0.0.1', '203.0.113.50, 198.51.100.1');
    expect(await third.closed).to.deep.equal(refusal);
    // five clients through one proxy: far more than 2 from the proxy's own address
    const others = [
      await through('127.0.0.1', '198.51.100.2'),
      await through('127.0.0.1', '198.51.100.2'),
      await through('127.0.0.1', '198.51.100.3'),
    ];
    for (const c of [...a, ...others]) expect(await c.request({ op: 'Ping' })).to.deep.equal(ping);
    // the proxy's own connections (no header) are one more address
    const direct = [await through('127.0.0.1'), await through('127.0.0.1')];
    expect(await (await through('127.0.0.1')).closed).to.deep.equal(refusal);
    for (const c of [...a, ...others, ...direct]) c.ws.close();
    await Promise.all([...a, ...others, ...direct].map((c) => c.closed));
  });

  it('ignores X-Forwarded-For from a peer that is no trusted proxy: it is counted by its own address', async () => {
    const forged = [await through('127.0.0.2', '198.51.100.7'), await through('127.0.0.2', '198.51.100.8')];
    expect(await (await through('127.0.0.2', '198.51.100.9')).closed).to.deep.equal(refusal);
    // and the addresses it named are untouched
    const real = await through('127.0.0.1', '198.51.100.7');
    expect(await real.request({ op: 'Ping' })).to.deep.equal(ping);
    for (const c of [...forged, real]) c.ws.close();
    await Promise.all([...forged, real].map((c) => c.closed));
  });
});
