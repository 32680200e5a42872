/** @module A websocket server in its own process, for tests of several servers fed by one populator. */
import prom from 'prom-client';
import { createPool } from '../../../src/db/connection/pool.ts';
import { startWebsocketServer } from '../../../src/events/ws-server.ts';
import { loadConfig } from '../../../src/config/middleware.ts';
import { createLogger } from '../../../src/base/log.ts';

// Started by a test or the benchmark with DATABASE_URL and DATABASE_SCHEMA; prints its url, stops on SIGTERM.
async function main(databaseUrl: string, schema: string): Promise<void> {
  // Only the server's own modules are loaded here, so the benchmark's RSS reading is the server's;
  // logs stay off because stdout carries the url.
  const cfg = loadConfig({
    DATABASE_URL: databaseUrl,
    DATABASE_SCHEMA: schema,
    WEBSOCKET_ADDRESS: '127.0.0.1:0',
    LOG_LEVEL: 'silent',
  });
  const { log } = createLogger(cfg);
  const pool = createPool({ databaseUrl, schema, max: 3 }, log);
  const server = await startWebsocketServer({ cfg, log, pool, registry: new prom.Registry() });
  process.stdout.write(`${server.url}\n`);
  process.once('SIGTERM', () => {
    void server
      .stop()
      .then(() => pool.end())
      .then(() => process.exit(0));
  });
}

// Only when run as a program (mocha given this directory imports it too).
if (process.argv[1] === import.meta.filename) {
  main(process.env.DATABASE_URL ?? '', process.env.DATABASE_SCHEMA ?? '').catch((err: unknown) => {
    process.stderr.write(`${String(err)}\n`);
    process.exit(1);
  });
}
