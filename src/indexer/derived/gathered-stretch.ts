/**
 * @module Where a stretch of an area that gathers (derived-areas.ts, `gathers`) ends: its heights bound it, and so do
 * its transactions, which the area holds in memory at once (the balances' changes of a whole stretch): a stretch of
 * busy heights ends sooner, so one step's working set follows the transactions it reads, not the heights.
 */
import type { HeightTransactions } from '../../db/queries/height-transactions.ts';

/**
 * stretchEnd is the last height of from..to up to which the heights from `from` hold at most `cap` transactions
 * (`heights`: the heights that hold any, ascending), and `from` itself when it alone holds more: a single huge
 * generation still makes progress. Pure.
 */
export function stretchEnd(from: number, to: number, heights: readonly HeightTransactions[], cap: number): number {
  let held = 0;
  for (const { height, transactions } of heights) {
    if (height < from) continue;
    if (height > to) break;
    held += transactions;
    if (held > cap) return Math.max(from, height - 1);
  }
  return to;
}
