/** @module A populator in a child process, for the kill -9 test: configuration from the environment. */
import prom from 'prom-client';
import pino from 'pino';
import { loadConfig } from '../../../../src/config/middleware.ts';
import { startPopulator } from '../../../../src/indexer/sync/populator.ts';

const cfg = loadConfig(process.env);
const populator = await startPopulator({ cfg, log: pino({ level: 'silent' }), registry: new prom.Registry() });
process.stdout.write('started\n');
process.on('SIGTERM', () => {
  void populator.stop().then(() => process.exit(0));
});
