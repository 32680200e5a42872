/**
 * @module A server reading two standbys: reads go to both, and when one stops the other serves on (the loss and the
 * return one line each, events still delivered, no 500), as when it comes back.
 */
import { expect } from 'chai';
import { Writable } from 'node:stream';
import { MemoryAccount } from '@aeternity/aepp-sdk';
import pino from 'pino';
import prom from 'prom-client';
import { startServer } from '../../../src/api/server.ts';
import type { Json } from '../../../src/chain/json.ts';
import { loadConfig } from '../../../src/config.ts';
import { migrate } from '../../../src/db/migrator.ts';
import { createPool, type Pool } from '../../../src/db/pool.ts';
import { queryOnce } from '../../support/postgres.ts';
import { startReplicatedPostgres, type ReplicatedPostgres } from '../../support/replica.ts';
import { waitFor } from '../../support/wait.ts';
import { notify, spendTx, writeHeight } from '../events/chain-writer.ts';
import { openClient, type TestClient } from '../events/ws-client.ts';
import { silentLog, startFakeNode, type FakeNode } from './harness.ts';

interface Line {
  level: number;
  msg: string;
}

const SCHEMA = 'public';

describe('a server reading two standbys', function () {
  this.timeout(180_000);
  const lines: Line[] = [];
  let pg: ReplicatedPostgres;
  let primary: Pool;
  let node: FakeNode;
  let server: Awaited<ReturnType<typeof startServer>>;
  let client: TestClient;
  let top = 5;
  const logged = (msg: string): Line[] => lines.filter((l) => l.msg === msg);
  const write = async (height: number): Promise<string> => {
    const spend = spendTx(MemoryAccount.generate().address, MemoryAccount.generate().address);
    return String((await writeHeight(primary, height, [[spend]])).keyBlock.hash);
  };
  /** commit writes the next height, announces it and returns its hash once its event has come. */
  const commit = async (): Promise<string> => {
    const hash = await write(++top);
    await notify(primary, SCHEMA, { from: top, to: top });
    const event = (await client.next(20_000)) as { payload: Record<string, Json> };
    expect(event.payload.hash).to.equal(hash);
    return hash;
  };
  const serverConnections = async (url: string): Promise<number> =>
    (
      await queryOnce<{ n: number }>(
        url,
        "SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'mdw-server'",
      )
    ).rows[0]!.n;

  before(async () => {
    pg = await startReplicatedPostgres({ replicas: 2 });
    await migrate({ databaseUrl: pg.primaryUrl, schema: SCHEMA }, silentLog);
    primary = createPool({ databaseUrl: pg.primaryUrl, schema: SCHEMA, max: 2 }, silentLog);
    for (let h = 0; h <= top; h++) await write(h);
    await pg.caughtUp();
    node = await startFakeNode();
    const log = pino(
      { level: 'info' },
      new Writable({
        write(chunk: Buffer, _enc, done) {
          lines.push(JSON.parse(chunk.toString()) as Line);
          done();
        },
      }),
    );
    const cfg = loadConfig({
      DATABASE_URL: pg.primaryUrl,
      DATABASE_READ_URLS: pg.replicaUrls.join(','),
      NODE_URL: node.url,
      PORT: '0',
      HTTP_HOST: '127.0.0.1',
      WEBSOCKET_ADDRESS: '127.0.0.1:0',
    });
    server = await startServer({ cfg, log, registry: new prom.Registry(), version: 't' });
    client = await openClient(server.wsUrl);
    await client.request({ op: 'subscribe', payload: 'key_blocks' });
  });
  after(async () => {
    client?.ws.terminate();
    await server?.stop();
    await node?.close();
    await primary?.end();
    await pg?.destroy();
  });

  it('takes turns between them', async () => {
    for (let i = 0; i < 20; i++) expect((await fetch(`${server.httpUrl}/mdw/v3/key-blocks/2`)).status).to.equal(200);
    for (const url of pg.replicaUrls) expect(await serverConnections(url)).to.be.greaterThan(0);
  });

  it('serves on from the other while one is stopped, and takes the first back', async () => {
    await pg.stopReplica(0);
    // an in-flight read on the stopped one may be refused; then the other serves every read
    await waitFor('a read served by the other', async () => {
      return (await fetch(`${server.httpUrl}/mdw/v3/key-blocks/2`)).status === 200;
    });
    for (let i = 0; i < 3; i++) {
      const hash = await commit();
      for (let j = 0; j < 10; j++) {
        const res = await fetch(`${server.httpUrl}/v2/key-blocks/height/${top}`);
        expect(res.status).to.equal(200);
        expect(((await res.json()) as { hash: string }).hash).to.equal(hash);
      }
    }
    expect((await fetch(`${server.httpUrl}/readyz`)).status).to.equal(200);
    await waitFor('the loss logged', () => logged('read replica lost or promoted: no reads go there').length > 0);
    await pg.startReplica(0);
    await waitFor(
      'the return logged',
      () => logged('read replica back: reads go there once it has caught up').length > 0,
    );
    await commit();
    await waitFor('reads on the first again', async () => {
      await fetch(`${server.httpUrl}/mdw/v3/key-blocks/2`);
      return (await serverConnections(pg.replicaUrls[0]!)) > 0;
    });
    expect(logged('read replica lost or promoted: no reads go there')).to.have.length(1);
    expect(logged('read replica back: reads go there once it has caught up')).to.have.length(1);
    expect(logged('database unavailable: refusing what needs it until it is back')).to.have.length(0);
    expect(lines.filter((l) => l.level >= 50).map((l) => l.msg)).to.deep.equal([]);
  });
});
