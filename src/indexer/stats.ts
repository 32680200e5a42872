/**
 * @module The statistics of a batch's heights (/v3/stats), derived in the batch's transaction after
 * its rows and internal transfers are written: difficulty from the header's compact target here, the
 * rest from the stored chain (db/queries/v3/stats-derive.ts).
 */
import { toSafeNumber } from '../chain/json.ts';
import { difficultyOf, hashrateOf } from '../chain/stats-intervals.ts';
import type { Queryable } from '../db/pool.ts';
import { deriveStatsRows } from '../db/queries/v3/stats-derive.ts';
import type { GenerationRows } from './rows.ts';

/**
 * deriveStats replaces the statistics of the batch's heights (ascending, one entry per height even
 * when a generation is continued). Block and dev rewards are read in SQL from the internal transfers
 * each key block paid (chain/block-rewards.ts decides them), so the two never disagree.
 */
export async function deriveStats(db: Queryable, gens: readonly GenerationRows[]): Promise<void> {
  const heights = [...new Set(gens.map((g) => g.keyBlock.height))];
  if (heights.length === 0) return;
  const targets = new Map(gens.map((g) => [g.keyBlock.height, toSafeNumber(g.keyBlock.data.target ?? 0)]));
  const difficulties = heights.map((h) => difficultyOf(targets.get(h)!));
  await deriveStatsRows(db, {
    heights,
    difficulties,
    hashrates: difficulties.map(hashrateOf),
  });
}
