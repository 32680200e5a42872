/**
 * @module Issue 38.4: a server reading standbys starts on a schema it has just migrated on the primary, or while its
 * standby is away, without exiting: not ready and answering 503 (never 500) until a standby has replayed the primary's
 * position of its start, then serving from it.
 */
import { expect } from 'chai';
import prom from 'prom-client';
import { startServer } from '../../../src/api/server.ts';
import { ensureSchema } from '../../../src/cli/ensure-schema.ts';
import { freePort } from '../../../src/cli/free-port.ts';
import { loadConfig, type Config } from '../../../src/config/middleware.ts';
import { startReplicatedPostgres, type ReplicatedPostgres } from '../../support/replica.ts';
import { waitFor } from '../../support/wait.ts';
import { startFakeNode, type FakeNode } from './harness.ts';
import { capturedLog } from '../../support/captured-log.ts';

describe('a server reading standbys, at its start (issue 38)', function () {
  this.timeout(180_000);
  let pg: ReplicatedPostgres;
  let node: FakeNode;
  let server: ReturnType<typeof startServer> | undefined;
  const rejections: unknown[] = [];
  const onRejection = (reason: unknown): void => void rejections.push(reason);

  before(async () => {
    // each commit reaches the standby 3 s after the primary made it
    pg = await startReplicatedPostgres({ applyDelayMs: 3000 });
    node = await startFakeNode();
    process.prependListener('unhandledRejection', onRejection);
  });
  afterEach(async () => {
    await (await server)?.stop();
    server = undefined;
  });
  after(async () => {
    process.off('unhandledRejection', onRejection);
    await node.close();
    await pg.destroy();
  });

  const config = (schema: string, port: number): Config =>
    loadConfig({
      DATABASE_URL: pg.primaryUrl,
      DATABASE_READ_URLS: pg.replicaUrl,
      DATABASE_SCHEMA: schema,
      NODE_URL: node.url,
      PORT: String(port),
      HTTP_HOST: '127.0.0.1',
      WEBSOCKET_ADDRESS: '127.0.0.1:0',
    });

  /** get answers a path's status (0 while nothing listens), and counts every answer that is neither 200 nor 503 as odd */
  const statuses = (port: number) => {
    const base = `http://127.0.0.1:${port}`;
    const odd: string[] = [];
    return {
      odd,
      async get(path: string): Promise<number> {
        const res = await fetch(`${base}${path}`).catch(() => undefined);
        if (!res) return 0;
        await res.arrayBuffer();
        if (res.status !== 200 && res.status !== 503) odd.push(`${path}: ${res.status}`);
        return res.status;
      },
    };
  };

  it('starts on a schema it migrated a moment ago, serving once the standby has replayed the migrations', async () => {
    const port = await freePort();
    const cfg = config('mdw_fresh', port);
    const { log, lines } = capturedLog();
    await ensureSchema(cfg, log);
    // the standby is 3 s behind: the schema's tables are not there yet; the server listens before it has them
    server = startServer({ cfg, log, registry: new prom.Registry(), version: 't' });
    const http = statuses(port);
    await waitFor('the server to listen', async () => (await http.get('/healthz')) === 200);
    expect(await http.get('/readyz')).to.equal(503);
    expect(await http.get('/mdw/v3/transactions')).to.equal(503);
    await waitFor('the server to be ready', async () => (await http.get('/readyz')) === 200, 30_000);
    await server;
    expect(await http.get('/mdw/v3/transactions')).to.equal(200);
    expect(http.odd).to.deep.equal([]);
    expect(lines.filter((l) => l.msg.startsWith('waiting for a read replica')).length).to.equal(1);
    expect(lines.filter((l) => l.level >= 50).map((l) => l.msg)).to.deep.equal([]);
    expect(rejections.map(String)).to.deep.equal([]);
  });

  it('starts while its standby is away, not ready until it is back and has replayed the primary', async () => {
    const port = await freePort();
    const cfg = config('mdw_away', port);
    const { log } = capturedLog();
    await ensureSchema(cfg, log);
    await pg.stopReplica();
    try {
      server = startServer({ cfg, log, registry: new prom.Registry(), version: 't' });
      const http = statuses(port);
      await waitFor('the server to listen', async () => (await http.get('/healthz')) === 200);
      expect(await http.get('/readyz')).to.equal(503);
      expect(await http.get('/mdw/v3/transactions')).to.equal(503);
      await pg.startReplica();
      await waitFor('the server to be ready', async () => (await http.get('/readyz')) === 200, 60_000);
      await server;
      expect(await http.get('/mdw/v3/transactions')).to.equal(200);
      expect(http.odd).to.deep.equal([]);
    } finally {
      await pg.startReplica().catch(() => {});
    }
    expect(rejections.map(String)).to.deep.equal([]);
  });
});
