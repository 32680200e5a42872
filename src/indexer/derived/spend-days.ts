/**
 * @module The `spends` area (migration 1061): each height's spends per UTC day, counted and their amounts summed, which
 * spend_days' triggers add up per day for /middleware/transactions/rate. A batch's amounts are read from its
 * transactions in memory; stored heights' (the backfill after the migration, `mdw -v`) from their stored bytes.
 */
import { spendAmount, spendsPerHeightDay, storedSpendAmount } from '../../chain/spend-days.ts';
import type { Queryable } from '../../db/connection/pool.ts';
import { addSpendHeights, deleteSpendHeights, storedSpendsOfHeights } from '../../db/writes/spend-heights.ts';
import type { GenerationRows } from '../rows/rows.ts';

/** deriveBatchSpends adds a batch's spends (a continued generation's to its stored rows). */
export async function deriveBatchSpends(db: Queryable, gens: readonly GenerationRows[]): Promise<void> {
  const spends = gens.flatMap((g) =>
    g.transactions
      .filter((t) => t.txType === 'SpendTx')
      .map((t) => ({ height: t.height, microTimeMs: t.microTimeMs, amount: spendAmount(t.tx) })),
  );
  await addSpendHeights(db, spendsPerHeightDay(spends));
}

/** deriveStoredSpends replaces the rows of heights from..to with those of their stored spends. */
export async function deriveStoredSpends(db: Queryable, from: number, to: number): Promise<void> {
  const spends = (await storedSpendsOfHeights(db, from, to)).map((s) => ({
    height: s.height,
    microTimeMs: s.microTimeMs,
    amount: storedSpendAmount(s.signed),
  }));
  await deleteSpendHeights(db, from, to);
  await addSpendHeights(db, spendsPerHeightDay(spends));
}
