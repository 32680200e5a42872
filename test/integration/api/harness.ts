/** @module API test harness: a migrated test database with the fixture chain, the Koa app over it, and a fake node. */
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type pino from 'pino';
import type Koa from 'koa';
import prom from 'prom-client';
import type supertest from 'supertest';
import type { Admission } from '../../../src/api/http/admission.ts';
import { createApp } from '../../../src/api/app.ts';
import type { ResponseCache } from '../../../src/api/http/response-cache.ts';
import { loadConfig } from '../../../src/config/middleware.ts';
import { createPool, createReadPool, type Pool } from '../../../src/db/connection/pool.ts';
import { createLogger } from '../../../src/base/log.ts';
import { createTestDatabase } from '../../support/postgres.ts';
import { appRequest } from '../../support/app-request.ts';
import { buildFixture, type ChainFixture } from './fixture.ts';

/** silentLog is a logger that writes nothing. */
export const silentLog = createLogger({
  logLevel: (process.env.TEST_LOG_LEVEL as 'silent') ?? 'silent',
  logPretty: false,
  logDir: undefined,
}).log;

/** A request as the fake node saw it. */
export interface SeenRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

/** FakeNode answers with `respond` (default: 200 echo of the request) and records every request. */
export interface FakeNode {
  readonly url: string;
  readonly seen: SeenRequest[];
  /** TCP connections accepted so far */
  readonly connections: number;
  respond: (
    req: SeenRequest,
  ) => { status: number; body: string; headers?: Record<string, string>; delayMs?: number } | 'hang';
  close(): Promise<void>;
}

/** startFakeNode listens on a free port. */
export async function startFakeNode(): Promise<FakeNode> {
  const node: FakeNode = {
    url: '',
    seen: [],
    connections: 0,
    close: async () => {},
    respond: (req) => ({
      status: 200,
      body: JSON.stringify({ echo: { method: req.method, url: req.url, body: req.body } }),
    }),
  };
  const hanging = new Set<ServerResponse>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const seen = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString(),
      };
      node.seen.push(seen);
      const answer = node.respond(seen);
      if (answer === 'hang') return void hanging.add(res);
      const send = (): void =>
        void res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers }).end(answer.body);
      if (answer.delayMs) setTimeout(send, answer.delayMs);
      else send();
    });
  });
  server.on('connection', () => {
    (node as { connections: number }).connections++;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return Object.assign(node, {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of hanging) res.destroy();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  });
}

/** An API under test. */
export interface ApiUnderTest {
  readonly request: ReturnType<typeof supertest>;
  /** the listening server's URL (app-request.ts plainGet) */
  readonly url: string;
  /** the app, for tests that need a real listening server */
  readonly app: Koa;
  /** a write pool on the API's database, for tests that change it */
  readonly pool: Pool;
  readonly fixture: ChainFixture;
  readonly node: FakeNode;
  readonly registry: prom.Registry;
  close(): Promise<void>;
}

/** startApi builds the database, the fixture (unless `empty`) and the app; `env` overrides configuration. */
export async function startApi(
  opts: {
    env?: Record<string, string>;
    empty?: boolean;
    fixture?: Parameters<typeof buildFixture>[1];
    responseCache?: ResponseCache;
    /** the app's logger (default: silent) */
    log?: pino.Logger;
    /** the turns of ae_mdw's requests (default: the app's own, sized to the pool) */
    admission?: Admission;
    /** the app writes through the test's pool (the webhooks API), as a server through its primary's */
    writes?: boolean;
  } = {},
): Promise<ApiUnderTest> {
  const db = await createTestDatabase({ migrated: 'public' });
  const node = await startFakeNode();
  const cfg = loadConfig({ DATABASE_URL: db.url, NODE_URL: node.url, NODE_TIMEOUT_MS: '1000', ...opts.env });
  const pool = createPool({ databaseUrl: db.url, schema: 'public', max: 5 }, silentLog);
  const fixture = opts.empty ? undefined : await buildFixture(pool, opts.fixture);
  const registry = new prom.Registry();
  // the app reads as a server does, through a read-only pool: a write on its read path fails the test
  const reads = createReadPool(cfg, 'mdw-test-api', silentLog, { max: 5 });
  const app = createApp({
    cfg,
    log: opts.log ?? silentLog,
    pool: reads,
    registry,
    version: '9.9.9-test',
    responseCache: opts.responseCache,
    admission: opts.admission,
    ...(opts.writes ? { writes: pool } : {}),
  });
  const served = await appRequest(app.callback());
  return {
    request: served.request,
    url: served.url,
    app,
    pool,
    node,
    registry,
    fixture: fixture!,
    async close() {
      await served.close();
      await node.close();
      await reads.end();
      await pool.end();
      await db.drop();
    },
  };
}
