/** @module One LISTEN connection per server process, shared by the websocket server and the API response cache. */
import { expect } from 'chai';
import prom from 'prom-client';
import supertest from 'supertest';
import { createApp } from '../../../src/api/app.ts';
import { startCacheInvalidation } from '../../../src/api/http/cache-invalidation.ts';
import { ResponseCache } from '../../../src/api/http/response-cache.ts';
import { startServer } from '../../../src/api/server.ts';
import { createPool, type Pool } from '../../../src/db/connection/pool.ts';
import { NotificationListener, type NotificationSubscriber } from '../../../src/events/listener.ts';
import { notifyChannel } from '../../../src/db/connection/notification.ts';
import { startWebsocketServer } from '../../../src/events/ws-server.ts';
import { createPopulator, notify, type TestPopulator } from './chain-writer.ts';
import { createEventsFixture, testConfig, type EventsFixture } from './ws-client.ts';

const SCHEMA = 'mdw_shared_listener';
/** With a fork window of 1, every height below the top is final and its answers are cached. */
const FINAL = 1;
const ENV = { PORT: '0', FORK_WINDOW: '1' };

describe('one shared LISTEN connection per server process (real PostgreSQL)', () => {
  let fixture: EventsFixture;
  let populator: TestPopulator;

  before(async () => {
    fixture = await createEventsFixture(SCHEMA);
    populator = createPopulator(fixture.pool, SCHEMA, FINAL);
    for (let i = 0; i < 3; i++) await populator.commit();
  });

  after(async () => {
    await fixture?.close();
  });

  /** rewrite changes a stored key block's info without telling anyone, as a missed rollback would. */
  const rewrite = (height: number, info: string): Promise<unknown> =>
    fixture.pool.query(`UPDATE key_blocks SET data = jsonb_set(data, '{info}', to_jsonb($2::text)) WHERE height = $1`, [
      height,
      info,
    ]);
  const listenBackends = async (applicationName: string): Promise<number> => {
    const { rows } = await fixture.pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_stat_activity
        WHERE datname = current_database() AND application_name = $1 AND query LIKE 'LISTEN%'`,
      [applicationName],
    );
    return rows[0]!.n;
  };

  it('startServer holds exactly one LISTEN backend, which feeds both the websocket and the cache invalidation', async function () {
    this.timeout(20_000);
    const server = await startServer({
      cfg: testConfig(fixture.databaseUrl, SCHEMA, ENV),
      log: fixture.log,
      registry: new prom.Registry(),
      version: 't',
    });
    try {
      expect(await listenBackends('mdw-server')).to.equal(1);
      const c = await fixture.open(server.wsUrl);
      await c.request({ op: 'subscribe', payload: 'key_blocks' });
      const info = async (): Promise<string> =>
        ((await (await fetch(`${server.httpUrl}/v2/key-blocks/height/${FINAL}`)).json()) as { info: string }).info;
      const cached = await info();
      await rewrite(FINAL, 'cb_rolled_back');
      expect(await info()).to.equal(cached);
      await notify(fixture.pool, SCHEMA, { from: FINAL, to: populator.height, rollbackFrom: FINAL });
      const written = await populator.commit();
      expect(await c.next()).to.deep.equal({ payload: written.keyBlock, subscription: 'key_blocks' });
      // The rollback was sent before the commit the websocket just delivered, on the same connection.
      expect(await info()).to.equal('cb_rolled_back');
      expect(await listenBackends('mdw-server')).to.equal(1);
    } finally {
      await server.stop();
    }
    expect(await listenBackends('mdw-server')).to.equal(0);
  });

  describe('after pg_terminate_backend of the shared LISTEN backend', () => {
    const RETRY_MS = 2000;
    let pool: Pool;
    let listener: NotificationListener;
    let cache: ResponseCache;
    let stopAll: () => Promise<void>;
    let request: ReturnType<typeof supertest>;
    let wsUrl: string;

    beforeEach(async () => {
      const cfg = testConfig(fixture.databaseUrl, SCHEMA, ENV);
      const log = fixture.log;
      pool = createPool(
        { databaseUrl: fixture.databaseUrl, schema: SCHEMA, max: 4, applicationName: 'mdw-shared-outage' },
        log,
      );
      // A slow first retry leaves a window in which the connection is known lost and not back yet.
      listener = new NotificationListener({ pool, channel: notifyChannel(SCHEMA), log, initialRetryMs: RETRY_MS });
      await listener.start();
      cache = new ResponseCache({ maxBytes: 1024 * 1024 });
      const invalidation = startCacheInvalidation({ listener, log, cache });
      const ws = await startWebsocketServer({ cfg, log, pool, registry: new prom.Registry(), listener });
      wsUrl = ws.url;
      request = supertest(
        createApp({ cfg, log, pool, registry: new prom.Registry(), version: 't', responseCache: cache }).callback(),
      );
      stopAll = async () => {
        await ws.stop();
        await invalidation.stop();
        await listener.stop();
        await pool.end();
      };
    });

    afterEach(async () => {
      await stopAll();
    });

    const info = async (): Promise<string> =>
      (JSON.parse((await request.get(`/v2/key-blocks/height/${FINAL}`).expect(200)).text) as { info: string }).info;
    /** next resolves when the listener next reports the event to a subscriber of its own. */
    const next = (event: 'onLost' | 'onReconnected'): { happened: Promise<void>; seen: () => boolean } => {
      let seen = false;
      const happened = new Promise<void>((resolve) => {
        const unsubscribe = listener.subscribe({
          [event]: () => {
            seen = true;
            unsubscribe();
            resolve();
          },
        } satisfies NotificationSubscriber);
      });
      return { happened, seen: () => seen };
    };

    it('the cache serves nothing from memory until the listener is back, while the websocket still gets what was committed meanwhile', async function () {
      this.timeout(20_000);
      const c = await fixture.open(wsUrl);
      await c.request({ op: 'subscribe', payload: 'key_blocks' });
      const before = await info();
      expect(await info()).to.equal(before);
      expect(cache.stats()).to.include({ entries: 1, hits: 1 });

      const lost = next('onLost');
      const reconnected = next('onReconnected');
      const { rows } = await fixture.pool.query<{ terminated: boolean }>(
        `SELECT pg_terminate_backend(pid) AS terminated FROM pg_stat_activity
          WHERE application_name = 'mdw-shared-outage' AND query LIKE 'LISTEN%'`,
      );
      expect(rows.map((r) => r.terminated)).to.deep.equal([true]);
      await lost.happened;
      // A rollback now would go unheard: the cached answer must not be served, nor a new one stored.
      await rewrite(FINAL, 'cb_missed_rollback');
      expect(await info()).to.equal('cb_missed_rollback');
      expect(await info()).to.equal('cb_missed_rollback');
      const missed = await populator.commit();
      expect(reconnected.seen(), `the listener came back within ${RETRY_MS} ms`).to.equal(false);
      expect(cache.stats()).to.include({ entries: 0, hits: 1 });

      await reconnected.happened;
      expect(await c.next()).to.deep.equal({ payload: missed.keyBlock, subscription: 'key_blocks' });
      expect(await info()).to.equal('cb_missed_rollback');
      expect(await info()).to.equal('cb_missed_rollback');
      expect(cache.stats()).to.include({ entries: 1, hits: 2 });
      const after = await populator.commit();
      expect(await c.next()).to.deep.equal({ payload: after.keyBlock, subscription: 'key_blocks' });
    });
  });
});
