/** @module A websocket test client: queued messages, awaited one by one, and the close it got. */
import WebSocket from 'ws';
import { parseJson, type Json } from '../../../src/chain/json.ts';
import { loadConfig, type Config } from '../../../src/config/middleware.ts';
import { createLogger, type Logger } from '../../../src/base/log.ts';
import type { Pool } from '../../../src/db/connection/pool.ts';
import { createMigratedDatabase } from '../../support/postgres.ts';

export interface TestClient {
  readonly ws: WebSocket;
  /** next resolves with the next message's raw text, or rejects after timeoutMs. */
  nextRaw(timeoutMs?: number): Promise<string>;
  /** next parses the next message losslessly (big integers become bigints). */
  next(timeoutMs?: number): Promise<Json>;
  /** nothingFor resolves when no message arrives within ms, and rejects with the message otherwise. */
  nothingFor(ms: number): Promise<void>;
  send(message: unknown): void;
  /** request sends a message and returns the parsed answer. */
  request(message: unknown): Promise<Json>;
  readonly closed: Promise<{ code: number; reason: string }>;
}

/** openClient connects and waits for the handshake. */
export async function openClient(url: string, options: WebSocket.ClientOptions = {}): Promise<TestClient> {
  const ws = new WebSocket(url, options);
  const queue: string[] = [];
  const waiters: ((text: string) => void)[] = [];
  ws.on('message', (data) => {
    const text = (data as Buffer).toString('utf8');
    const waiter = waiters.shift();
    if (waiter) waiter(text);
    else queue.push(text);
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) => {
    ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() }));
  });
  ws.on('error', () => {});
  await new Promise<void>((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  const nextRaw = (timeoutMs = 5000): Promise<string> => {
    const queued = queue.shift();
    if (queued !== undefined) return Promise.resolve(queued);
    return new Promise<string>((resolve, reject) => {
      const waiter = (text: string): void => {
        clearTimeout(timer);
        resolve(text);
      };
      const timer = setTimeout(() => {
        waiters.splice(waiters.indexOf(waiter), 1);
        reject(new Error(`no message within ${timeoutMs} ms`));
      }, timeoutMs);
      waiters.push(waiter);
    });
  };
  const client: TestClient = {
    ws,
    nextRaw,
    next: async (timeoutMs) => parseJson(await nextRaw(timeoutMs)),
    async nothingFor(ms) {
      const got = await nextRaw(ms).catch(() => undefined);
      if (got !== undefined) throw new Error(`unexpected message: ${got.slice(0, 200)}`);
    },
    send: (message) => ws.send(typeof message === 'string' ? message : JSON.stringify(message)),
    async request(message) {
      client.send(message);
      return client.next();
    },
    closed,
  };
  return client;
}

/** testConfig is a configuration for a server on a free loopback port, on the given database. */
export function testConfig(databaseUrl: string, schema: string, env: Record<string, string> = {}): Config {
  return loadConfig({
    DATABASE_URL: databaseUrl,
    DATABASE_SCHEMA: schema,
    WEBSOCKET_ADDRESS: '127.0.0.1:0',
    LOG_LEVEL: 'silent',
    ...env,
  });
}

/** silentLogger keeps test output clean (LOG_LEVEL=debug in the environment shows the server's logs). */
export function silentLogger(): Logger {
  return createLogger({
    logDir: undefined,
    logLevel: process.env.LOG_LEVEL === 'debug' ? 'debug' : 'silent',
    logPretty: false,
  }).log;
}

/** EventsFixture is what each websocket test file needs: a fresh migrated database, a pool, and its clients. */
export interface EventsFixture {
  readonly databaseUrl: string;
  readonly pool: Pool;
  readonly log: Logger;
  /** open connects a client that close() terminates. */
  open(url: string, options?: WebSocket.ClientOptions): Promise<TestClient>;
  close(): Promise<void>;
}

/** createEventsFixture makes a database with the chain schema migrated into `schema`. */
export async function createEventsFixture(schema: string): Promise<EventsFixture> {
  const log = silentLogger();
  const db = await createMigratedDatabase(schema, 4);
  const pool = db.pool;
  const clients: TestClient[] = [];
  return {
    databaseUrl: db.url,
    pool,
    log,
    async open(url, options) {
      const client = await openClient(url, options);
      clients.push(client);
      return client;
    },
    async close() {
      for (const c of clients) c.ws.terminate();
      await db.drop();
    },
  };
}
