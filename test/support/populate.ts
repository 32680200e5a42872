/** @module populateToTop: one populator run in the test's process, from its start until it stored the node's top. */
import pino, { type Logger } from 'pino';
import prom from 'prom-client';
import type { Config } from '../../src/config/middleware.ts';
import { startPopulator } from '../../src/indexer/sync/populator.ts';

/**
 * populateToTop starts a populator on `cfg`, waits until it is synced with the node and stops it (also on failure);
 * it logs to `log` (silent by default).
 */
export async function populateToTop(
  cfg: Config,
  registry = new prom.Registry(),
  log: Logger = pino({ level: 'silent' }),
): Promise<void> {
  const populator = await startPopulator({ cfg, log, registry });
  try {
    await populator.synced();
  } finally {
    await populator.stop();
  }
}
