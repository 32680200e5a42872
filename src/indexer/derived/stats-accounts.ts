/**
 * @module The accounts' statistics of a batch (first appearances, active accounts per day, week and month) counted
 * from its account appearances in memory, the twin of the stored derivation's accounts statement in
 * db/writes/stats-derive.ts, which reads them back from account_transactions joined with the micro blocks. What
 * needs the stored state before the batch (an account seen earlier, an interval's earlier activity) stays with
 * PostgreSQL's upsert of these rows. Pure.
 */
import { KEY_TAGS } from '../../chain/id-key.ts';
import { intervalOf, INTERVALS, utcDay } from '../../chain/stats-intervals.ts';
import type { CountedAccounts } from '../../db/writes/stats-derive.ts';
import type { AccountTxRow, GenerationRows } from '../rows/rows.ts';
import type { IdNumbers } from '../rows/tables.ts';

/** A batch's account appearances as the writer stores them: its rows, and the ids' numbers (migration 1000). */
export interface BatchAppearances {
  readonly rows: readonly (readonly AccountTxRow[])[];
  readonly numbers: Pick<IdNumbers, 'number'>;
}

/** The first appearance of an account in a batch so far: its position and its micro block's day. */
interface First {
  height: number;
  microIndex: number;
  txIndex: number;
  day: number;
}

/**
 * countedAccounts are the rows the stored derivation's accounts statement upserts for whole generations (ascending,
 * none continuing a stored one): each account's (a number of kind ak) first appearance in the batch with its micro
 * block's UTC day, and each account's lowest height per day, week and month it appears in.
 */
export function countedAccounts(gens: readonly GenerationRows[], batch: BatchAppearances): CountedAccounts {
  // each micro block's day, by height and micro index
  const days = new Map<number, number[]>();
  for (const g of gens) {
    if (g.continuesAt !== undefined) throw new RangeError(`height ${g.keyBlock.height} continues a stored generation`);
    const byIndex: number[] = [];
    for (const m of g.microBlocks) byIndex[m.microIndex] = utcDay(Number(m.timeMs));
    days.set(g.keyBlock.height, byIndex);
  }
  const first = new Map<number, First>();
  // each account's lowest height per day it appears in (an account's days in a batch are few)
  const perDay = new Map<number, Map<number, number>>();
  for (const rows of batch.rows)
    for (const r of rows) {
      const account = batch.numbers.number(r.account);
      if ((account & 7) !== KEY_TAGS.ak) continue;
      const day = days.get(r.height)?.[r.microIndex];
      // the stored derivation joins each appearance with its micro block: one without is not seen
      if (day === undefined) continue;
      const f = first.get(account);
      if (f === undefined) first.set(account, { height: r.height, microIndex: r.microIndex, txIndex: r.txIndex, day });
      else if (
        r.height < f.height ||
        (r.height === f.height &&
          (r.microIndex < f.microIndex || (r.microIndex === f.microIndex && r.txIndex < f.txIndex)))
      ) {
        f.height = r.height;
        f.microIndex = r.microIndex;
        f.txIndex = r.txIndex;
        f.day = day;
      }
      let heights = perDay.get(account);
      if (heights === undefined) perDay.set(account, (heights = new Map()));
      const lowest = heights.get(day);
      if (lowest === undefined || r.height < lowest) heights.set(day, r.height);
    }
  const firstSeen = { accounts: [] as number[], heights: [] as number[], days: [] as number[] };
  for (const [account, f] of first) {
    firstSeen.accounts.push(account);
    firstSeen.heights.push(f.height);
    firstSeen.days.push(f.day);
  }
  const active = {
    intervalBy: [] as string[],
    starts: [] as number[],
    accounts: [] as number[],
    heights: [] as number[],
  };
  const months = new Map<number, number>();
  for (const [account, heights] of perDay)
    for (const by of INTERVALS) {
      // the account's lowest height per interval of this kind: its days' intervals, merged
      const lowest = new Map<number, number>();
      for (const [day, height] of heights) {
        let start = by === 'month' ? months.get(day) : intervalOf(day, by);
        if (start === undefined) months.set(day, (start = intervalOf(day, by)));
        const h = lowest.get(start);
        if (h === undefined || height < h) lowest.set(start, height);
      }
      for (const [start, height] of lowest) {
        active.intervalBy.push(by);
        active.starts.push(start);
        active.accounts.push(account);
        active.heights.push(height);
      }
    }
  return { firstSeen, active };
}
