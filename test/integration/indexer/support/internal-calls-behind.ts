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
 * it): of `schema` (the populator migrates one not there yet). `stepHeights`: the heights of the batches and of the
 * backfill's steps, when not the harness's 10 (a chain of hundreds of heights, an auction's, in several steps each of
 * 50 rather than dozens of 10, each a transaction of its own; the batches then cut apart from an in-batch load's of
 * 10, whose tables the caller compares this load's with). `env`: the node settings and the schema (verifyClean);
 * `pendingFrom`: the first height the int_calls area was pending from before the backfill (the test's chain has it at
 * its first contract call).
 */
export async function populatedInternalCallsBehind(
  h: Harness,
  schema = 'mdw',
  stepHeights?: number,
): Promise<{ env: Record<string, string>; pool: Pool; pendingFrom: number | undefined }> {
  const env = { ...(await nodeSettings(h)), DATABASE_SCHEMA: schema };
  const proxy = await refusingDryRuns(h.devnode.externalUrl);
  // to the node's top (not synced: the balances wait for the internal calls)
  const stepped = stepHeights === undefined ? env : { ...env, BATCH_SIZE: String(stepHeights) };
  const populator = await startPopulator({
    cfg: h.config({ ...stepped, NODE_URL: proxy.url }),
    log: silent,
    registry: new prom.Registry(),
  });
  try {
    await waitFor(
      "the node's top stored",
      async () => (await storedTopHash(h, schema))?.height === h.devnode.height(),
      120_000,
    );
  } finally {
    await populator.stop();
    await proxy.close();
  }
  const pool = createPool({ databaseUrl: h.db.url, schema, max: 2 }, silent);
  const pending = await pool.query<{ next: number }>(
    "SELECT next_height AS next FROM derive_backfill WHERE area = 'int_calls'",
  );
  await deriveAgain(h, pool, stepped);
  return { env, pool, pendingFrom: pending.rows[0]?.next };
}
