/** @module populateToTop: one populator run in the test's process, from its start until it stored the node's top. */
import pino from 'pino';
import prom from 'prom-client';
import type { Config } from '../../src/config.ts';
import { startPopulator } from '../../src/indexer/sync/populator.ts';

/** populateToTop starts a populator on `cfg`, waits until it is synced with the node and stops it (also on failure). */
export async function populateToTop(cfg: Config, registry = new prom.Registry()): Promise<void> {
  const populator = await startPopulator({ cfg, log: pino({ level: 'silent' }), registry });
  try {
    await populator.synced();
  } finally {
    await populator.stop();
  }
}
