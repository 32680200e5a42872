/**
 * @module The statistics of a batch's heights (/v3/stats), derived in the batch's transaction after
 * its rows and internal transfers are written: difficulty from the header's compact target here, the
 * rest from the stored chain (db/writes/stats-derive.ts), but for what a batch of whole generations decides
 * itself, counted from its rows in memory: its series of blocks, transactions, difficulty and hashrate, and those of
 * the rows its statements return (stats-series.ts), its accounts' first appearances and activity (stats-accounts.ts)
 * and its generations' channels and micro blocks (stats-generations.ts).
 */
import { toSafeNumber } from '../../chain/json.ts';
import { difficultyOf, hashrateOf } from '../../chain/stats-intervals.ts';
import type { Queryable } from '../../db/connection/pool.ts';
import { deriveStatsRows, type CountedBatch } from '../../db/writes/stats-derive.ts';
import type { GenerationRows } from '../rows/rows.ts';
import { countedAccounts, type BatchAppearances } from './stats-accounts.ts';
import { countedGenerations } from './stats-generations.ts';
import { countedSeries, type KeyBlockFigures } from './stats-series.ts';

type Blocks = readonly { readonly height: number; readonly target: unknown }[];

/**
 * deriveStats replaces the statistics of the batch's heights (ascending, one entry per height even
 * when a generation is continued). Block and dev rewards are read in SQL from the internal transfers
 * each key block paid (chain/block-rewards.ts decides them), so the two never disagree. `appearances` are the
 * batch's account rows as the writer stored them (without them the accounts are read back from the stored rows).
 */
export async function deriveStats(
  db: Queryable,
  gens: readonly GenerationRows[],
  appearances?: BatchAppearances,
): Promise<void> {
  const targets = new Map(gens.map((g) => [g.keyBlock.height, g.keyBlock.data.target ?? 0]));
  // whole generations count in memory (a continued one has rows stored before the batch)
  const whole = gens.every((g) => g.continuesAt === undefined);
  await deriveOf(
    db,
    [...targets].map(([height, target]) => ({ height, target })),
    whole
      ? (figures) => ({
          series: (derived) => countedSeries(gens, figures, derived),
          accounts: appearances && countedAccounts(gens, appearances),
          generations: countedGenerations(gens),
        })
      : undefined,
  );
}

/**
 * deriveStatsOfStored replaces the statistics of stored heights (ascending, distinct) from their stored
 * rows; only the difficulty comes from the caller, from each key block's compact target.
 */
export async function deriveStatsOfStored(db: Queryable, blocks: Blocks): Promise<void> {
  await deriveOf(db, blocks);
}

async function deriveOf(
  db: Queryable,
  blocks: Blocks,
  count?: (figures: ReadonlyMap<number, KeyBlockFigures>) => CountedBatch,
): Promise<void> {
  if (blocks.length === 0) return;
  const difficulties = blocks.map((b) => difficultyOf(toSafeNumber(b.target)));
  const hashrates = difficulties.map(hashrateOf);
  const figures = (): Map<number, KeyBlockFigures> =>
    new Map(blocks.map((b, i) => [b.height, { difficulty: difficulties[i]!, hashrate: hashrates[i]! }]));
  await deriveStatsRows(db, {
    heights: blocks.map((b) => b.height),
    difficulties,
    hashrates,
    counted: count && (() => count(figures())),
  });
}
