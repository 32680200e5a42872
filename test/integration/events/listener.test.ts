/** @module NotificationListener on a real PostgreSQL: fan-out to subscribers, and a connection that dies silently. */
import { once } from 'node:events';
import { createServer, connect, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { createPool, type Pool } from '../../../src/db/connection/pool.ts';
import { NotificationListener } from '../../../src/events/listener.ts';
import { notifyChannel } from '../../../src/db/connection/notification.ts';
import { capturedLog } from '../../support/captured-log.ts';
import { startTcpProxy } from '../../support/tcp-proxy.ts';
import { createEventsFixture, type EventsFixture } from './ws-client.ts';

const SCHEMA = 'mdw_listener';
const CHANNEL = notifyChannel(SCHEMA);

/**
 * FreezableProxy forwards TCP to the database; freeze() stops forwarding on every connection opened so far, without
 * closing it; hold() keeps new connections waiting (accepted, not yet forwarded) until release().
 */
interface FreezableProxy {
  readonly url: string;
  freeze(): void;
  hold(): void;
  /** held is the count of connections waiting */
  readonly held: number;
  release(): void;
  close(): Promise<void>;
}

async function startProxy(databaseUrl: string): Promise<FreezableProxy> {
  const target = new URL(databaseUrl);
  const pairs: [Socket, Socket][] = [];
  let holding = false;
  const waiting: Socket[] = [];
  const forward = (downstream: Socket): void => {
    const upstream = connect(Number(target.port), target.hostname);
    pairs.push([downstream, upstream]);
    downstream.pipe(upstream);
    upstream.pipe(downstream);
    const end = (): void => {
      downstream.destroy();
      upstream.destroy();
    };
    downstream.on('close', end).on('error', end);
    upstream.on('close', end).on('error', end);
  };
  const server: Server = createServer((downstream) => {
    if (holding) waiting.push(downstream);
    else forward(downstream);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const proxied = new URL(databaseUrl);
  proxied.hostname = '127.0.0.1';
  proxied.port = String((server.address() as AddressInfo).port);
  return {
    url: proxied.toString(),
    freeze() {
      // Like a dropped NAT entry: nothing arrives any more, and nobody is told.
      for (const [downstream, upstream] of pairs) {
        downstream.unpipe(upstream);
        upstream.unpipe(downstream);
        downstream.pause();
        upstream.pause();
      }
    },
    hold() {
      holding = true;
    },
    get held() {
      return waiting.length;
    },
    release() {
      holding = false;
      for (const downstream of waiting.splice(0)) forward(downstream);
    },
    async close() {
      for (const downstream of waiting) downstream.destroy();
      for (const [downstream, upstream] of pairs) {
        downstream.destroy();
        upstream.destroy();
      }
      server.close();
      await once(server, 'close');
    },
  };
}

/**
 * stallAfterCheck makes `stall(ms)` block the event loop for `ms` (a synchronous busy loop: a long render, a GC pause, a
 * stopped process) right after the next LISTEN a client of `pool` sends, in the same turn of the loop, before its answer
 * can be read. Connections made before it are not watched: LISTEN on those is the listener's start.
 */
function stallAfterCheck(pool: Pool): { stall(ms: number): void; readonly pending: boolean } {
  let stallMs = 0;
  pool.on('connect', (client) => {
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    client.query = ((...args: unknown[]) => {
      const sent = query(...args);
      if (stallMs > 0 && String(args[0]).startsWith('LISTEN')) {
        const until = performance.now() + stallMs;
        stallMs = 0;
        // after the turn that sent it (its poll phase included), as a render in a request's own callback would
        setImmediate(() => {
          while (performance.now() < until);
        });
      }
      return sent;
    }) as typeof client.query;
  });
  return {
    stall: (ms) => {
      stallMs = ms;
    },
    get pending() {
      return stallMs > 0;
    },
  };
}

describe('NotificationListener (real PostgreSQL)', () => {
  let fixture: EventsFixture;
  before(async () => {
    fixture = await createEventsFixture(SCHEMA);
  });
  after(async () => {
    await fixture?.close();
  });

  const send = (payload: string): Promise<unknown> =>
    fixture.pool.query('SELECT pg_notify($1, $2)', [CHANNEL, payload]);
  /** until polls `done` (events arrive asynchronously) and fails after a few seconds. */
  const until = async (done: () => boolean, what: string): Promise<void> => {
    for (let i = 0; i < 250 && !done(); i++) await new Promise((r) => setTimeout(r, 20));
    expect(done(), what).to.equal(true);
  };

  it('hands each notification to every subscriber, in order, even when one of them throws; unsubscribed ones hear nothing', async () => {
    const listener = new NotificationListener({ pool: fixture.pool, channel: CHANNEL, log: fixture.log });
    await listener.start();
    try {
      const first: string[] = [];
      const second: string[] = [];
      const gone: string[] = [];
      listener.subscribe({
        onNotification: (p) => {
          first.push(p);
          throw new Error('subscriber bug');
        },
      });
      listener.subscribe({ onNotification: (p) => second.push(p) });
      const unsubscribe = listener.subscribe({ onNotification: (p) => gone.push(p) });
      await send('a');
      await until(() => gone.length === 1, 'the third subscriber heard the first notification');
      unsubscribe();
      await send('b');
      await until(() => second.length === 2, 'the second subscriber heard both');
      expect(first).to.deep.equal(['a', 'b']);
      expect(second).to.deep.equal(['a', 'b']);
      expect(gone).to.deep.equal(['a']);
    } finally {
      await listener.stop();
    }
  });

  /** watched runs a listener on `pool` (checks every 100 ms, 300 ms timeout), with what its subscriber heard and its log. */
  const watched = async (pool: Pool) => {
    const { log, lines } = capturedLog();
    const listener = new NotificationListener({
      pool,
      channel: CHANNEL,
      log,
      checkIntervalMs: 100,
      checkTimeoutMs: 300,
      initialRetryMs: 50,
    });
    const events: string[] = [];
    listener.subscribe({
      onNotification: (p) => events.push(`notification ${p}`),
      onLost: () => events.push('lost'),
      onReconnected: () => events.push('reconnected'),
    });
    await listener.start();
    return { listener, events, logged: () => lines.map((line) => line.msg) };
  };

  it('notices a connection that stops answering without closing: reports it lost, reconnects, and hears notifications again', async () => {
    const proxy = await startProxy(fixture.databaseUrl);
    const pool: Pool = createPool({ databaseUrl: proxy.url, schema: SCHEMA, max: 2 }, fixture.log);
    const { listener, events } = await watched(pool);
    try {
      await send('before');
      await until(() => events.length === 1, 'the notification arrived through the proxy');
      proxy.freeze();
      await send('while frozen');
      await until(() => events.includes('reconnected'), 'the listener reconnected');
      await send('after');
      await until(() => events.includes('notification after'), 'the notification after the reconnect arrived');
      // The new connection is watched as well.
      proxy.freeze();
      await until(() => events.filter((e) => e === 'reconnected').length === 2, 'the listener reconnected again');
      await send('again');
      await until(() => events.includes('notification again'), 'the notification after the second reconnect arrived');
      expect(events).to.deep.equal([
        'notification before',
        'lost',
        'reconnected',
        'notification after',
        'lost',
        'reconnected',
        'notification again',
      ]);
    } finally {
      await listener.stop();
      await pool.end();
      await proxy.close();
    }
  });

  it('stopped while it reconnects, gives the new connection back and tells nobody it reconnected (issue 27: every background task)', async () => {
    const proxy = await startProxy(fixture.databaseUrl);
    const pool: Pool = createPool({ databaseUrl: proxy.url, schema: SCHEMA, max: 2 }, fixture.log);
    const listener = new NotificationListener({
      pool,
      channel: CHANNEL,
      log: fixture.log,
      checkIntervalMs: 100,
      checkTimeoutMs: 300,
      initialRetryMs: 50,
    });
    const events: string[] = [];
    listener.subscribe({ onLost: () => events.push('lost'), onReconnected: () => events.push('reconnected') });
    await listener.start();
    try {
      proxy.hold();
      proxy.freeze();
      await until(() => proxy.held > 0, 'the listener to be reconnecting');
      await listener.stop();
      proxy.release();
      await until(() => pool.totalCount === pool.idleCount || pool.totalCount === 0, 'the new connection given back');
      await new Promise((r) => setTimeout(r, 200));
      expect(events).to.deep.equal(['lost']);
      expect(listener.listening).to.equal(false);
    } finally {
      await listener.stop();
      await pool.end();
      await proxy.close();
    }
  });

  describe('a check under an event loop blocked past its timeout (a long render, a GC pause, a stopped process)', () => {
    const LOST = 'database listen connection lost; reconnecting';

    // A stall past the timeout by far, and one that ends as the timeout falls due (the timer is then hardly late).
    for (const stallMs of [1000, 305]) {
      it(`keeps the connection when the database answered during a ${stallMs} ms stall: no loss logged or emitted, notifications go on`, async () => {
        const pool = createPool({ databaseUrl: fixture.databaseUrl, schema: SCHEMA, max: 2 }, fixture.log);
        const stalls = stallAfterCheck(pool);
        const { listener, events, logged } = await watched(pool);
        try {
          stalls.stall(stallMs);
          await until(() => !stalls.pending, 'a check was sent');
          // the stalled check and a few more go by
          await new Promise((r) => setTimeout(r, stallMs + 800));
          await send('after the stall');
          await until(() => events.length > 0, 'the notification after the stall arrived');
          expect(events).to.deep.equal(['notification after the stall']);
          expect(logged()).to.not.include(LOST);
          expect(listener.listening).to.equal(true);
        } finally {
          await listener.stop();
          await pool.end();
        }
      });
    }

    it('keeps the connection when the answer comes only after the stall (the database stopped with the process)', async () => {
      // Through a proxy in this process, which forwards nothing while the loop is blocked: the answer reaches the
      // listener a few turns after the loop resumes, as from a database that was paused or starved with it.
      const target = new URL(fixture.databaseUrl);
      const proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port) });
      const proxied = new URL(fixture.databaseUrl);
      proxied.hostname = '127.0.0.1';
      proxied.port = String(proxy.port);
      const pool = createPool({ databaseUrl: proxied.toString(), schema: SCHEMA, max: 2 }, fixture.log);
      const stalls = stallAfterCheck(pool);
      const { listener, events, logged } = await watched(pool);
      try {
        stalls.stall(1000);
        await until(() => !stalls.pending, 'a check was sent');
        await new Promise((r) => setTimeout(r, 800));
        await send('after the stall');
        await until(() => events.length > 0, 'the notification after the stall arrived');
        expect(events).to.deep.equal(['notification after the stall']);
        expect(logged()).to.not.include(LOST);
      } finally {
        await listener.stop();
        await pool.end();
        await proxy.close();
      }
    });

    it('still finds a connection that never answers lost, once, though its check timed a stall', async () => {
      const proxy = await startProxy(fixture.databaseUrl);
      const pool = createPool({ databaseUrl: proxy.url, schema: SCHEMA, max: 2 }, fixture.log);
      const stalls = stallAfterCheck(pool);
      const { listener, events, logged } = await watched(pool);
      try {
        proxy.freeze();
        stalls.stall(1000);
        await until(() => events.includes('reconnected'), 'the listener reconnected');
        await send('after');
        await until(() => events.includes('notification after'), 'the notification after the reconnect arrived');
        expect(events).to.deep.equal(['lost', 'reconnected', 'notification after']);
        expect(logged().filter((msg) => msg === LOST)).to.have.length(1);
      } finally {
        await listener.stop();
        await pool.end();
        await proxy.close();
      }
    });
  });
});
