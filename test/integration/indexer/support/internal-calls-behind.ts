/**
 * @module A chain populated with its internal calls derived after the batches, as the backfill derives them where the
 * int_calls area was behind: the populator stores the devnode's chain through a proxy that answers the replays 404 (a
 * node without the endpoint), the area's heights left to the backfill, which then derives them with the node.
 */
import prom from 'prom-client';
import { createPool, type Pool } from '../../../../src/db/connection/pool.ts';
import { startPopulator } from '../../../../src/indexer/sync/populator.ts';
import { deriveAgain, nodeSettings, silent, storedTopHash, waitFor, type Harness } from './harness.ts';
import { refusingDryRuns } from './refusing-dry-runs.ts';

/**
 * populatedInternalCallsBehind populates the schema to the devnode's top with the replays refused, then derives the
 * pending areas with the node (the int_calls area and those waiting for it), and opens a pool on it (the caller ends
 * it). `env`: the node settings (verifyClean); `pendingFrom`: the first height the int_calls area was pending from
 * before the backfill (the test's chain has it at its first contract call).
 */
export async function populatedInternalCallsBehind(
  h: Harness,
): Promise<{ env: Record<string, string>; pool: Pool; pendingFrom: number | undefined }> {
  const env = await nodeSettings(h);
  const proxy = await refusingDryRuns(h.devnode.externalUrl);
  // to the node's top (not synced: the balances wait for the internal calls)
  const populator = await startPopulator({
    cfg: h.config({ ...env, NODE_URL: proxy.url }),
    log: silent,
    registry: new prom.Registry(),
  });
  try {
    await waitFor(
      "the node's top stored",
      async () => (await storedTopHash(h, 'mdw'))?.height === h.devnode.height(),
      120_000,
    );
  } finally {
    await populator.stop();
    await proxy.close();
  }
  const pool = createPool({ databaseUrl: h.db.url, schema: 'mdw', max: 2 }, silent);
  const pending = await pool.query<{ next: number }>(
    "SELECT next_height AS next FROM derive_backfill WHERE area = 'int_calls'",
  );
  await deriveAgain(h, pool, env);
  return { env, pool, pendingFrom: pending.rows[0]?.next };
}
