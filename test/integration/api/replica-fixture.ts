/**
 * @module What the read replica tests share: a primary with streaming standbys, the chain written on the primary by
 * the populator's test double, a server reading the standbys (its log lines kept) and a websocket client of it.
 */
import { MemoryAccount } from '@aeternity/aepp-sdk';
import prom from 'prom-client';
import { startServer } from '../../../src/api/server.ts';
import { loadConfig } from '../../../src/config/middleware.ts';
import { migrate } from '../../../src/db/schema/migrator.ts';
import { createPool, type Pool } from '../../../src/db/connection/pool.ts';
import {
  sharedReplicatedPostgres,
  startReplicatedPostgres,
  type ReplicaOptions,
  type ReplicatedPostgres,
} from '../../support/replica.ts';
import { notify, spendTx, writeHeight, type WrittenHeight } from '../events/chain-writer.ts';
import { openClient, type TestClient } from '../events/ws-client.ts';
import { silentLog, startFakeNode, type FakeNode } from './harness.ts';
import { capturedLog, type LogLine } from '../../support/captured-log.ts';

/** The schema the chain is written in. */
const SCHEMA = 'public';

export interface ReplicaFixture {
  readonly pg: ReplicatedPostgres;
  readonly server: Awaited<ReturnType<typeof startServer>>;
  /** the websocket client, subscribed as asked */
  readonly client: TestClient;
  /** every line the server logged so far */
  readonly lines: LogLine[];
  /** the lines with this message */
  logged(msg: string): LogLine[];
  /** write stores a height with one spend on the primary (not announced) */
  write(height: number): Promise<WrittenHeight>;
  /** announce sends the populator's notification of heights written */
  announce(from: number, to: number, rollbackFrom?: number): Promise<void>;
  /** primary is a pool on the primary, for the chain's changes */
  readonly primary: Pool;
  close(): Promise<void>;
}

/**
 * startReplicaFixture writes heights 0..`heights` on the primary, waits for the standbys, and starts a server reading
 * them with `env` besides, and a websocket client subscribed to `subscriptions` (the seed's protocol). `replicas`:
 * a pair of the file's own so made, or `shared`, a database on the process's pair (sharedReplicatedPostgres), for a
 * file that neither stops, promotes nor delays its replica.
 */
export async function startReplicaFixture(options: {
  readonly replicas?: ReplicaOptions | 'shared';
  readonly heights: number;
  readonly env?: Record<string, string>;
  readonly subscriptions: readonly string[];
}): Promise<ReplicaFixture> {
  const pg =
    options.replicas === 'shared' ? await sharedReplicatedPostgres() : await startReplicatedPostgres(options.replicas);
  await migrate({ databaseUrl: pg.primaryUrl, schema: SCHEMA }, silentLog);
  const primary = createPool({ databaseUrl: pg.primaryUrl, schema: SCHEMA, max: 2 }, silentLog);
  const write = (height: number): Promise<WrittenHeight> =>
    writeHeight(primary, height, [[spendTx(MemoryAccount.generate().address, MemoryAccount.generate().address)]]);
  for (let h = 0; h <= options.heights; h++) await write(h);
  await pg.caughtUp();
  const node: FakeNode = await startFakeNode();
  const { log, lines } = capturedLog();
  const cfg = loadConfig({
    DATABASE_URL: pg.primaryUrl,
    DATABASE_READ_URLS: pg.replicaUrls.join(','),
    NODE_URL: node.url,
    PORT: '0',
    HTTP_HOST: '127.0.0.1',
    WEBSOCKET_ADDRESS: '127.0.0.1:0',
    ...options.env,
  });
  const server = await startServer({ cfg, log, registry: new prom.Registry(), version: 't' });
  const client = await openClient(server.wsUrl);
  for (const payload of options.subscriptions) await client.request({ op: 'subscribe', payload });
  return {
    pg,
    server,
    client,
    lines,
    logged: (msg) => lines.filter((l) => l.msg === msg),
    write,
    announce: (from, to, rollbackFrom) =>
      notify(primary, SCHEMA, { from, to, ...(rollbackFrom === undefined ? {} : { rollbackFrom }) }),
    primary,
    async close() {
      client.ws.terminate();
      await server.stop();
      await node.close();
      await primary.end();
      await pg.destroy();
    },
  };
}
