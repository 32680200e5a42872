/**
 * @module The statistics of a batch's heights (/v3/stats), derived in the batch's transaction after
 * its rows are written: the figures the database cannot compute (rewards from the coinbase table,
 * difficulty from the header's compact target) here, the rest from the stored chain (db/queries/v3/stats-derive.ts).
 */
import { blockReward } from '../chain/block-reward.ts';
import { toSafeNumber } from '../chain/json.ts';
import { difficultyOf, hashrateOf } from '../chain/stats-intervals.ts';
import type { Queryable } from '../db/pool.ts';
import { deriveStatsRows, feesByHeight } from '../db/queries/v3/stats-derive.ts';
import type { GenerationRows } from './rows.ts';

/**
 * deriveStats replaces the statistics of the batch's heights (ascending, one entry per height even
 * when a generation is continued). Dev rewards are 0: the chains this middleware follows pay no
 * protocol beneficiaries (the devnode has none).
 */
export async function deriveStats(db: Queryable, gens: readonly GenerationRows[]): Promise<void> {
  const heights = [...new Set(gens.map((g) => g.keyBlock.height))];
  if (heights.length === 0) return;
  const fees = await feesByHeight(db, heights[0]! - 1, heights.at(-1)!);
  const targets = new Map(gens.map((g) => [g.keyBlock.height, toSafeNumber(g.keyBlock.data.target ?? 0)]));
  const difficulties = heights.map((h) => difficultyOf(targets.get(h)!));
  await deriveStatsRows(db, {
    heights,
    blockRewards: heights.map((h) => blockReward(h, fees.get(h - 1) ?? 0n, fees.get(h) ?? 0n)),
    devRewards: heights.map(() => 0n),
    difficulties,
    hashrates: difficulties.map(hashrateOf),
  });
}
