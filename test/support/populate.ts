/**
 * @module populateToTop: one populator run in the test's process, from its start until it stored the node's top;
 * deriveBackfills: one until it derived what derive_backfill holds (what a migration queued).
 */
import pino, { type Logger } from 'pino';
import prom from 'prom-client';
import type { Config } from '../../src/config/middleware.ts';
import type { Pool } from '../../src/db/connection/pool.ts';
import { startPopulator } from '../../src/indexer/sync/populator.ts';
import { waitFor } from './wait.ts';

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

/** deriveBackfills runs a populator on `cfg` until the derived areas queued in `derive_backfill` are derived. */
export async function deriveBackfills(cfg: Config, pool: Pool): Promise<void> {
  const populator = await startPopulator({ cfg, log: pino({ level: 'silent' }), registry: new prom.Registry() });
  try {
    await waitFor(
      'the areas derived again',
      async () => (await pool.query('SELECT 1 FROM derive_backfill')).rows.length === 0,
      60_000,
    );
  } finally {
    await populator.stop();
  }
}
