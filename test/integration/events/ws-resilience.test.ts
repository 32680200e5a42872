/** @module Websocket resilience: several server processes, a lost LISTEN connection, tx_update. */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import prom from 'prom-client';
import { Encoding, MemoryAccount } from '@aeternity/aepp-sdk';
import { stringifyJson, type Json } from '../../../src/chain/json.ts';
import { createPool } from '../../../src/db/connection/pool.ts';
import { startWebsocketServer } from '../../../src/events/ws-server.ts';
import { PENDING_PATH } from '../../../src/node/mempool.ts';
import {
  createPopulator,
  randomId,
  spendTx,
  type TestPopulator,
  type TxSpec,
  type WrittenHeight,
} from './chain-writer.ts';
import { createEventsFixture, testConfig, type EventsFixture, type TestClient } from './ws-client.ts';

const SCHEMA = 'mdw_ws_resilience';
const SERVER_SCRIPT = fileURLToPath(new URL('./server-process.ts', import.meta.url));

describe('websocket resilience (real PostgreSQL, real sockets)', () => {
  let fixture: EventsFixture;
  let populator: TestPopulator;
  const commitHeight = (micros: readonly (readonly TxSpec[])[] = []): Promise<WrittenHeight> =>
    populator.commit(micros);
  const client = (url: string): Promise<TestClient> => fixture.open(url);

  before(async () => {
    fixture = await createEventsFixture(SCHEMA);
    populator = createPopulator(fixture.pool, SCHEMA, 1);
    await commitHeight();
  });

  after(async () => {
    await fixture?.close();
  });

  it('delivers every event from two server processes fed by one populator', async function () {
    this.timeout(60_000);
    const processes = await Promise.all([
      startServerProcess(fixture.databaseUrl),
      startServerProcess(fixture.databaseUrl),
    ]);
    try {
      const watchers = await Promise.all(processes.map((p) => client(p.url)));
      for (const w of watchers) {
        await w.request({ op: 'subscribe', payload: 'key_blocks' });
        await w.request({ op: 'subscribe', payload: 'transactions' });
      }
      const [a, b] = [MemoryAccount.generate().address, MemoryAccount.generate().address];
      const first = await commitHeight([[spendTx(a, b)]]);
      const second = await commitHeight([]);
      for (const w of watchers) {
        expect(await w.next()).to.deep.equal({ payload: first.keyBlock, subscription: 'key_blocks' });
        expect(await w.next()).to.deep.equal({
          payload: first.micros[0]!.txs[0]!.signed,
          subscription: 'transactions',
        });
        expect(await w.next()).to.deep.equal({ payload: second.keyBlock, subscription: 'key_blocks' });
      }
    } finally {
      await Promise.all(processes.map((p) => stopProcess(p.child)));
    }
  });

  it('survives pg_terminate_backend of its LISTEN connection and delivers what was committed meanwhile', async () => {
    const registry = new prom.Registry();
    const ownPool = createPool(
      { databaseUrl: fixture.databaseUrl, schema: SCHEMA, max: 3, applicationName: 'mdw-ws-terminated' },
      fixture.log,
    );
    const server = await startWebsocketServer({
      cfg: testConfig(fixture.databaseUrl, SCHEMA),
      log: fixture.log,
      pool: ownPool,
      registry,
    });
    try {
      const c = await client(server.url);
      await c.request({ op: 'subscribe', payload: 'key_blocks' });
      const { rows } = await fixture.pool.query<{ terminated: boolean }>(
        `SELECT pg_terminate_backend(pid) AS terminated FROM pg_stat_activity
          WHERE application_name = 'mdw-ws-terminated' AND query LIKE 'LISTEN%'`,
      );
      expect(rows.map((r) => r.terminated)).to.deep.equal([true]);
      // Committed and notified while the server has no LISTEN connection: the notification is lost.
      const missed = await commitHeight();
      expect(await c.next()).to.deep.equal({ payload: missed.keyBlock, subscription: 'key_blocks' });
      const after = await commitHeight();
      expect(await c.next()).to.deep.equal({ payload: after.keyBlock, subscription: 'key_blocks' });
      const reconnects = await registry.getSingleMetric('mdw_ws_listener_reconnects_total')?.get();
      expect(reconnects?.values[0]?.value).to.equal(1);
    } finally {
      await server.stop();
      await ownPool.end();
    }
  });

  it('reports mempool transactions on tx_update, then their inclusion', async () => {
    const [a, b] = [MemoryAccount.generate().address, MemoryAccount.generate().address];
    const spend = spendTx(a, b);
    const hash = randomId(Encoding.TxHash);
    const pending: Json = { block_hash: 'none', block_height: -1, hash, signatures: ['sg_1'], tx: spend.tx };
    const node = await startFakeNode(() => ({ transactions: [pending] }));
    const internalUrl = `http://127.0.0.1:${(node.address() as AddressInfo).port}`;
    const cfg = testConfig(fixture.databaseUrl, SCHEMA, {
      NODE_INTERNAL_URL: internalUrl,
      MEMPOOL_POLL_INTERVAL_MS: '50',
    });
    const server = await startWebsocketServer({
      cfg,
      log: fixture.log,
      pool: fixture.pool,
      registry: new prom.Registry(),
    });
    try {
      const updates = await client(server.url);
      expect(await updates.request({ op: 'Subscribe', payload: 'TxUpdate' })).to.deep.equal(['TxUpdate']);
      const others = await client(server.url);
      await others.request({ op: 'subscribe', payload: 'transactions' });
      expect(await updates.next()).to.deep.equal({ payload: pending, subscription: 'TxUpdate' });
      // Still pending at the next polls: reported once only.
      await updates.nothingFor(200);
      const included = await commitHeight([[{ ...spend, hash }]]);
      const inclusion = await updates.next();
      expect(inclusion).to.deep.equal({ payload: included.micros[0]!.txs[0]!.signed, subscription: 'TxUpdate' });
      expect(stringifyJson((inclusion as { payload: { block_height: Json } }).payload.block_height)).to.equal(
        String(populator.height),
      );
      expect(await others.next()).to.deep.include({ subscription: 'transactions' });
    } finally {
      await server.stop();
      node.close();
    }
  });

  it('reports inclusions on tx_update when the node internal API is not configured', async () => {
    const server = await startWebsocketServer({
      cfg: testConfig(fixture.databaseUrl, SCHEMA),
      log: fixture.log,
      pool: fixture.pool,
      registry: new prom.Registry(),
    });
    try {
      const updates = await client(server.url);
      await updates.request({ op: 'subscribe', payload: 'tx_update' });
      const written = await commitHeight([
        [spendTx(MemoryAccount.generate().address, MemoryAccount.generate().address)],
      ]);
      expect(await updates.next()).to.deep.equal({
        payload: written.micros[0]!.txs[0]!.signed,
        subscription: 'tx_update',
      });
    } finally {
      await server.stop();
    }
  });
});

async function startServerProcess(databaseUrl: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [SERVER_SCRIPT], {
    env: { ...process.env, DATABASE_URL: databaseUrl, DATABASE_SCHEMA: SCHEMA },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const [line] = (await once(child.stdout!, 'data')) as [Buffer];
  return { child, url: line.toString().trim() };
}

async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  child.kill('SIGTERM');
  await once(child, 'exit');
}

async function startFakeNode(pendingList: () => Json): Promise<Server> {
  const server = createServer((req, res) => {
    if (req.url !== PENDING_PATH) {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"reason":"not found"}');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(stringifyJson(pendingList()));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return server;
}
