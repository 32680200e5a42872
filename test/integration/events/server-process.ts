/** @module A websocket server in its own process, for tests of several servers fed by one populator. */
import prom from 'prom-client';
import { createPool } from '../../../src/db/pool.ts';
import { startWebsocketServer } from '../../../src/events/ws-server.ts';
import { silentLogger, testConfig } from './ws-client.ts';

// Started by the test with DATABASE_URL and DATABASE_SCHEMA; prints its url, stops on SIGTERM.
const databaseUrl = process.env.DATABASE_URL ?? '';
const schema = process.env.DATABASE_SCHEMA ?? '';
const log = silentLogger();
const pool = createPool({ databaseUrl, schema, max: 3 }, log);
const server = await startWebsocketServer({ cfg: testConfig(databaseUrl, schema), log, pool, registry: new prom.Registry() });
process.stdout.write(`${server.url}\n`);
process.once('SIGTERM', () => {
  void server.stop().then(() => pool.end()).then(() => process.exit(0));
});
