/**
 * @module /readyz as the kubelet sees it (2 s timeout): it answers from the last pings at once, never waiting long
 * for a ping; a database that is only slow keeps the server ready, named "database slow", and logged once (every server
 * shares the database: one slow for everyone took them all out of their Service); a database that refuses connections
 * makes it not ready after UNREACHABLE_AFTER_MS, and ready at the first probe once it is back. And (issue 89) a probe
 * under a burst answers at once, while the ping's rows wait for their turn behind the pages. A starting server is not
 * ready until its websocket listens too.
 */
import { expect } from 'chai';
import { createServer as createHttpServer } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import prom from 'prom-client';
import { createApp } from '../../../src/api/app.ts';
import { Admission } from '../../../src/api/http/admission.ts';
import { UNREACHABLE_AFTER_MS } from '../../../src/api/http/readiness.ts';
import { startServer } from '../../../src/api/server.ts';
import { loadConfig } from '../../../src/config/middleware.ts';
import { createPool } from '../../../src/db/connection/pool.ts';
import { capturedLog } from '../../support/captured-log.ts';
import { deadEnd } from '../../support/dead-end.ts';
import { HeldTurns } from '../../support/held-turns.ts';
import { createMigratedDatabase, createTestDatabase, freePort } from '../../support/postgres.ts';
import { startTcpProxy, type TcpProxy } from '../../support/tcp-proxy.ts';
import { waitFor } from '../../support/wait.ts';
import { silentLog, startFakeNode } from './harness.ts';

type Answer = { status: number | 'timeout'; ms: number; body?: unknown };

/** probeOf is a kubelet's probe of `url`: 2 s timeout; its status and body, or `timeout`, and how long it took. */
function probeOf(url: string): (timeoutMs?: number) => Promise<Answer> {
  return async (timeoutMs = 2000) => {
    const started = performance.now();
    try {
      const res = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(timeoutMs) });
      const body = (await res.json()) as unknown;
      return { status: res.status, ms: performance.now() - started, body };
    } catch {
      return { status: 'timeout', ms: performance.now() - started };
    }
  };
}

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe('/readyz of an idle server whose database is slow or refuses connections', function () {
  this.timeout(90_000);
  const { log, lines } = capturedLog();
  const logged = (msg: string): number => lines.filter((l) => l.msg === msg).length;
  const SLOW = 'database slow: pings take over 1 s; staying ready, requests answered 503/504 at their deadlines';
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let node: Awaited<ReturnType<typeof deadEnd>>;
  let proxy: TcpProxy;
  let registry: prom.Registry;
  let close: () => Promise<void>;
  let probe: (timeoutMs?: number) => Promise<Answer>;

  before(async () => {
    db = await createTestDatabase({ migrated: 'public' });
    node = await deadEnd();
    const real = new URL(db.url);
    proxy = await startTcpProxy({ host: real.hostname, port: Number(real.port) });
    const proxied = new URL(db.url);
    proxied.host = `127.0.0.1:${proxy.port}`;
    const cfg = loadConfig({ DATABASE_URL: proxied.href, NODE_URL: node.url });
    const pool = createPool({ databaseUrl: proxied.href, schema: 'public', max: 2 }, silentLog);
    registry = new prom.Registry();
    const server = createHttpServer(createApp({ cfg, log, pool, registry, version: 't' }).callback());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    probe = probeOf(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    close = async () => {
      server.close();
      await pool.end();
    };
  });
  after(async () => {
    await close?.();
    await proxy?.close();
    await node?.close();
    await db?.drop();
  });

  it('stays ready, named "database slow" and logged once, while every ping takes 3 s, answering each probe fast', async () => {
    expect(await probe()).to.deep.include({ status: 200, body: { ready: true } });
    // the pool's connection stays open: every answer of the database comes 3 s late from now on
    proxy.setDelay(3000);
    await pause(300);
    const answers: Answer[] = [];
    for (let i = 0; i < 24; i++) {
      answers.push(await probe());
      await pause(250);
    }
    expect(answers.filter((a) => a.status !== 200 || a.ms > 1500)).to.deep.equal([]);
    // the first ping found it slow once it was a second late, and the one that ended took its 3 s
    expect(answers.slice(-4).map((a) => a.body)).to.deep.equal(
      Array.from({ length: 4 }, () => ({ ready: true, reason: 'database slow' })),
    );
    const pingSeconds = await registry.getSingleMetric('mdw_api_readiness_ping_seconds')!.get();
    expect(pingSeconds.values[0]!.value).to.be.at.least(2.9);
    expect(logged(SLOW)).to.equal(1);
    proxy.setDelay(0);
    await pause(3500); // the ping sent under the delay ends
    await probe();
    await pause(300);
    expect(await probe()).to.deep.include({ status: 200, body: { ready: true } });
    expect(logged('database answers again')).to.equal(1);
    expect(logged(SLOW)).to.equal(1);
  });

  it('is not ready once the database has refused connections for UNREACHABLE_AFTER_MS, and ready again when it is back', async () => {
    expect(await probe()).to.deep.include({ status: 200, body: { ready: true } });
    proxy.refuse();
    const refusedAt = Date.now();
    // the kubelet's probes, every 0.5 s here: each answered fast; ready through the window, naming the failure (from
    // the probe after the one whose ping found it), then not ready
    const failing = new RegExp(
      `^database unreachable for \\d+ s \\(not ready after ${UNREACHABLE_AFTER_MS / 1000} s\\)$`,
    );
    const ready: Answer[] = [];
    let notReady: Answer | undefined;
    let notReadyAt = 0;
    while (notReady === undefined && Date.now() - refusedAt < UNREACHABLE_AFTER_MS + 5000) {
      const answer = await probe();
      expect(answer.ms, 'a probe answered within the 2 s timeout').to.be.below(1500);
      if (answer.status === 200) ready.push(answer);
      else [notReady, notReadyAt] = [answer, Date.now()];
      await pause(500);
    }
    expect(notReady).to.deep.include({ status: 503, body: { ready: false, reason: 'database unreachable' } });
    expect(notReadyAt - refusedAt).to.be.at.least(UNREACHABLE_AFTER_MS);
    expect(ready.length).to.be.at.least(15);
    expect(ready.slice(2).filter((a) => !failing.test((a.body as { reason?: string }).reason ?? ''))).to.deep.equal([]);
    expect(logged('not ready: database unreachable')).to.equal(1);
    // back: ready at its first probe
    proxy.accept();
    const back = await probe();
    expect(back).to.deep.include({ status: 200, body: { ready: true } });
    expect(back.ms).to.be.below(1500);
    expect(logged('database answers again')).to.equal(2);
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
    const probe = probeOf(url);
    try {
      expect((await probe()).status).to.equal(200);
      // the burst: one page running, waiting for its turn, the others parked for theirs
      turns.hold();
      const pages = Array.from({ length: 3 }, () => fetch(`${url}/mdw/v3/key-blocks?limit=1`).then((r) => r.status));
      await pause(300);
      expect(admission.counts.waiting, 'pages waiting').to.be.above(0);
      // every 200 ms for 3 s, past the ping's own 2 s bound: each answered 200 well within the probe's timeout
      const answers: Answer[] = [];
      for (let i = 0; i < 15; i++) {
        answers.push(await probe());
        await pause(200);
      }
      expect(answers.filter((a) => a.status !== 200 || a.ms > 500)).to.deep.equal([]);
      turns.release();
      expect(await Promise.all(pages)).to.deep.equal([200, 200, 200]);
      // the ping's rows held back on an idle server: a slow database to this process, ready, and every probe fast
      await pause(300);
      turns.hold();
      expect(await probe()).to.deep.include({ status: 200 });
      await pause(1300);
      const held = await probe();
      expect(held).to.deep.include({ status: 200, body: { ready: true, reason: 'database slow' } });
      expect(held.ms).to.be.below(500);
      // released: the slow ping ends, and the next prompt one makes it plainly ready, every probe fast meanwhile
      turns.release();
      const prompt = async (): Promise<boolean> => {
        const answer = await probe();
        expect(answer).to.deep.include({ status: 200 });
        expect(answer.ms).to.be.below(500);
        return JSON.stringify(answer.body) === '{"ready":true}';
      };
      await waitFor('the database to answer promptly again', prompt, 5000, 100);
    } finally {
      turns.release();
      server.close();
      await pool.end();
      await node.close();
      await db.drop();
    }
  });
});

describe('/readyz of a server starting', function () {
  this.timeout(60_000);

  /** accepts is whether a TCP connection to 127.0.0.1:port is accepted (false: refused) */
  const accepts = (port: number): Promise<boolean> =>
    new Promise((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => (socket.destroy(), resolve(true))).once('error', () => resolve(false));
    });

  it('is not ready while its HTTP API listens and its websocket does not yet, and ready once both do', async () => {
    const db = await createMigratedDatabase('mdw_starting');
    const node = await startFakeNode();
    const [port, wsPort] = [await freePort(), await freePort()];
    const cfg = loadConfig({
      DATABASE_URL: db.url,
      DATABASE_SCHEMA: 'mdw_starting',
      NODE_URL: node.url,
      PORT: String(port),
      HTTP_HOST: '127.0.0.1',
      WEBSOCKET_ADDRESS: `127.0.0.1:${wsPort}`,
    });
    // another session's lock holds the websocket's start where it reads the stored top (its chain feed), after the
    // HTTP API listens: the window a slow start (a long table scan, a database under load) leaves open
    const locker = await db.pool.connect();
    await locker.query('BEGIN');
    await locker.query('LOCK TABLE key_blocks IN ACCESS EXCLUSIVE MODE');
    let locked = true;
    const unlock = async (): Promise<void> => {
      if (!locked) return;
      locked = false;
      await locker.query('ROLLBACK');
      locker.release();
    };
    const started = startServer({ cfg, log: silentLog, registry: new prom.Registry(), version: 't' });
    const probe = probeOf(`http://127.0.0.1:${port}`);
    try {
      await waitFor('the HTTP API to listen', async () => (await probe()).status !== 'timeout', 20_000, 50);
      const answers: Answer[] = [];
      for (let i = 0; i < 3; i++) {
        answers.push(await probe());
        await pause(200);
      }
      expect(await accepts(wsPort), 'the websocket port accepts').to.equal(false);
      expect(answers.map(({ status, body }) => ({ status, body }))).to.deep.equal(
        Array.from({ length: 3 }, () => ({
          status: 503,
          body: { ready: false, reason: 'starting: websocket not listening yet' },
        })),
      );
      expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status, 'alive meanwhile').to.equal(200);
      await unlock();
      await started;
      expect(await accepts(wsPort), 'the websocket port accepts').to.equal(true);
      expect(await probe()).to.deep.include({ status: 200, body: { ready: true } });
    } finally {
      await unlock();
      await (await started.catch(() => undefined))?.stop();
      await node.close();
      await db.drop();
    }
  });
});
