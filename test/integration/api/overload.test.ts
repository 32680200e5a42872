/**
 * @module A server with more requests than its database pool serves (issue 27, item 3): every answer is 200 or a
 * 503 with Retry-After in the API's own shape, never a 500, and /readyz keeps the loaded server in service; a request
 * held past its deadline is answered 503 then (issue 41), not when the database lets it go on.
 */
import { expect } from 'chai';
import prom from 'prom-client';
import { startServer } from '../../../src/api/server.ts';
import { loadConfig } from '../../../src/config/middleware.ts';
import { createMigratedDatabase } from '../../support/postgres.ts';
import { silentLog, startFakeNode, type FakeNode } from './harness.ts';

describe('a server under more load than its pool serves', function () {
  this.timeout(90_000);
  let db: Awaited<ReturnType<typeof createMigratedDatabase>>;
  let node: FakeNode;
  let server: Awaited<ReturnType<typeof startServer>>;

  before(async () => {
    db = await createMigratedDatabase('mdw_overload');
    node = await startFakeNode();
    const cfg = loadConfig({
      DATABASE_URL: db.url,
      DATABASE_SCHEMA: 'mdw_overload',
      DATABASE_POOL_SIZE: '3',
      NODE_URL: node.url,
      PORT: '0',
      HTTP_HOST: '127.0.0.1',
      WEBSOCKET_ADDRESS: '127.0.0.1:0',
    });
    server = await startServer({ cfg, log: silentLog, registry: new prom.Registry(), version: 't' });
  });

  after(async () => {
    await server?.stop();
    await node?.close();
    await db?.drop();
  });

  it('refuses what waits too long for a turn or runs past its deadline with 503 and Retry-After, and stays ready', async () => {
    expect((await fetch(`${server.httpUrl}/mdw/v3/status`)).status).to.equal(200);
    // Another session's lock stands for slow queries: every read of key_blocks waits for it.
    const locker = await db.pool.connect();
    await locker.query('BEGIN');
    await locker.query('LOCK TABLE key_blocks IN ACCESS EXCLUSIVE MODE');
    let answers: Promise<{ status: number; retryAfter: string | null; body: unknown }[]>;
    let statusShed: number;
    try {
      answers = Promise.all(
        Array.from({ length: 60 }, async () => {
          const res = await fetch(`${server.httpUrl}/mdw/v3/key-blocks?limit=1`);
          return { status: res.status, retryAfter: res.headers.get('retry-after'), body: await res.json() };
        }),
      );
      // three requests hold the pool's connections, the others wait for a turn
      await new Promise((r) => setTimeout(r, 1000));
      const ready = await fetch(`${server.httpUrl}/readyz`);
      expect(ready.status).to.equal(200);
      expect(await ready.json()).to.deep.equal({ ready: true, busy: true });
      // a status is never older than a second (issue 44): its new reading takes a turn like any read, and with every
      // connection held it is refused the same way, never answered with an old status, a 500 or a hang
      const status = await fetch(`${server.httpUrl}/mdw/v3/status`);
      expect([200, 503]).to.include(status.status);
      if (status.status === 503) expect(status.headers.get('retry-after')).to.equal('1');
      statusShed = status.status === 503 ? 1 : 0;
      // every request is answered while the lock is held: those waiting for a turn after their longest wait, those
      // let in (their reads held by the lock) at their deadline, both within 5 s of their arrival
      await answers;
    } finally {
      await locker.query('ROLLBACK');
      locker.release();
    }
    const all = await answers;
    const byStatus = Map.groupBy(all, (a) => a.status);
    expect([...byStatus.keys()]).to.deep.equal([503]);
    for (const refused of byStatus.get(503)!) {
      expect(refused.retryAfter).to.equal('1');
      expect(refused.body).to.deep.equal({ error: 'server busy: retry later' });
    }
    const metrics = await (await fetch(`${server.httpUrl}/metrics`)).text();
    expect(metrics).to.match(
      new RegExp(`^mdw_api_shed_requests_total ${byStatus.get(503)!.length + statusShed}$`, 'm'),
    );
    // each under the route it asked for, whether refused in the line or at its deadline (issue 59: `unmatched`)
    expect(metrics).to.match(
      new RegExp(
        `^mdw_api_http_requests_total\\{method="GET",route="/mdw/v3/key-blocks",status="503"\\} ${byStatus.get(503)!.length}$`,
        'm',
      ),
    );
    expect(metrics).not.to.match(/^mdw_api_http_requests_total\{[^}]*route="unmatched"/m);
  });
});
