/**
 * @module /readyz's judgement of a ping too slow to answer (issue 41): under a burst the ping's rows wait for their
 * turn behind the pages rendered before them, and a loaded server was taken out of service once per burst. A slow
 * ping while requests wait for their turns is busy; a slow ping on an idle server, or a ping that fails, is not ready.
 * And (issue 89) a probe answers that judgement kept aside at once, never waiting 2 s for a ping of its own.
 */
import { expect } from 'chai';
import { createServer as createHttpServer } from 'node:http';
import prom from 'prom-client';
import { createApp } from '../../../src/api/app.ts';
import { Admission } from '../../../src/api/http/admission.ts';
import { loadConfig } from '../../../src/config/middleware.ts';
import { HeldTurns } from '../../support/held-turns.ts';
import { createTestDatabase } from '../../support/postgres.ts';
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { pingReadiness } from '../../../src/api/http/readiness.ts';
import { createPool, type Pool } from '../../../src/db/connection/pool.ts';
import { deadEnd } from '../../support/dead-end.ts';
import { silentLog } from './harness.ts';

describe('/readyz with a ping too slow to answer (issue 41)', function () {
  this.timeout(60_000);
  // a database that takes the connection and never answers: every ping outlasts readiness's bound
  const sockets: Socket[] = [];
  let stalled: Server;
  let slowPool: Pool;
  before(async () => {
    stalled = createServer((socket) => void sockets.push(socket));
    await new Promise<void>((resolve) => stalled.listen(0, '127.0.0.1', resolve));
    const { port } = stalled.address() as AddressInfo;
    slowPool = createPool({ databaseUrl: `postgres://mdw:x@127.0.0.1:${port}/mdw`, schema: 'public' }, silentLog);
  });
  after(async () => {
    for (const socket of sockets) socket.destroy();
    stalled.close();
    await slowPool.end().catch(() => {});
  });

  it('is busy while requests wait for their turns, and not ready on an idle server', async () => {
    expect(await pingReadiness(slowPool, () => true)).to.deep.equal({ ready: true, busy: true });
    expect(await pingReadiness(slowPool, () => false)).to.deep.equal({
      ready: false,
      reason: 'database unreachable',
    });
  });

  it('is not ready when the ping fails, however loaded the server', async () => {
    const database = await deadEnd();
    const refused = createPool(
      { databaseUrl: `postgres://mdw:x@127.0.0.1:${database.port}/mdw`, schema: 'public' },
      silentLog,
    );
    try {
      expect(await pingReadiness(refused, () => true)).to.deep.equal({
        ready: false,
        reason: 'database unreachable',
      });
    } finally {
      await refused.end();
      await database.close();
    }
  });
});

describe('/readyz under a burst (issue 89)', function () {
  this.timeout(60_000);

  it("answers every probe at once while the ping's rows wait behind the burst, and still judges the database", async () => {
    // the held turns stand for a burst's pages: a query's rows (the ping's among them) wait for their turn of the event
    // loop behind those rendered before them, seconds on a loaded machine (issue 89: 2,000 pages, probes timed out)
    const turns = new HeldTurns();
    turns.release();
    const db = await createTestDatabase({ migrated: 'public' });
    const node = await deadEnd();
    const cfg = loadConfig({ DATABASE_URL: db.url, NODE_URL: node.url });
    const pool = createPool({ databaseUrl: db.url, schema: 'public', max: 2, turns }, silentLog);
    const admission = new Admission({ concurrency: 1, maxWaiting: 10, maxWaitMs: 20_000, deadlineMs: 20_000 }, turns);
    const app = createApp({ cfg, log: silentLog, pool, registry: new prom.Registry(), version: 't', admission });
    const server = createHttpServer(app.callback());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    // a kubelet's probe: 2 s timeout; its answer, or `timeout`
    const probe = async (timeoutMs = 2000): Promise<{ status: number | 'timeout'; ms: number }> => {
      const started = performance.now();
      try {
        const res = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(timeoutMs) });
        await res.text();
        return { status: res.status, ms: performance.now() - started };
      } catch {
        return { status: 'timeout', ms: performance.now() - started };
      }
    };
    const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
    try {
      expect((await probe()).status).to.equal(200);
      // the burst: one page running, waiting for its turn, the others parked for theirs
      turns.hold();
      const pages = Array.from({ length: 3 }, () => fetch(`${url}/mdw/v3/key-blocks?limit=1`).then((r) => r.status));
      await pause(300);
      expect(admission.counts.waiting, 'pages waiting').to.be.above(0);
      // every 200 ms for 3 s, past the ping's own 2 s bound: each answered 200 well within the probe's timeout
      const answers: { status: number | 'timeout'; ms: number }[] = [];
      for (let i = 0; i < 15; i++) {
        answers.push(await probe());
        await pause(200);
      }
      expect(answers.filter((a) => a.status !== 200 || a.ms > 500)).to.deep.equal([]);
      turns.release();
      expect(await Promise.all(pages)).to.deep.equal([200, 200, 200]);
      // readiness still means the database answers: a ping too slow on an idle server is 503 from the next probe
      await pause(300);
      turns.hold();
      expect((await probe()).status).to.equal(200);
      await pause(2300);
      // (a not-ready server's probe pings anew, as long as its ping takes)
      expect((await probe(5000)).status).to.equal(503);
      // and a not-ready judgement is judged anew: ready at the first probe once the database answers
      turns.release();
      const back = await probe();
      expect(back.status).to.equal(200);
      expect(back.ms).to.be.below(500);
    } finally {
      turns.release();
      server.close();
      await pool.end();
      await node.close();
      await db.drop();
    }
  });
});
