/**
 * @module The accounts' statistics of a batch (first appearances, active accounts per day, week and month) counted
 * from its account appearances in memory, the twin of the stored derivation's accounts statement in
 * db/queries/v3/stats-derive.ts, which reads them back from account_transactions joined with the micro blocks. What
 * needs the stored state before the batch (an account seen earlier, an interval's earlier activity) stays with
 * PostgreSQL's upsert of these rows. Pure.
 */
import { KEY_TAGS } from '../chain/id-key.ts';
import { intervalOf, INTERVALS, type IntervalBy } from '../chain/stats-intervals.ts';
import type { CountedAccounts } from '../db/queries/v3/stats-derive.ts';
import type { AccountTxRow, GenerationRows } from './rows.ts';
import type { IdNumbers } from './tables.ts';

const DAY_MS = 86_400_000n;

/** A batch's account appearances as the writer stores them: its rows, and the ids' numbers (migration 0095). */
export interface BatchAppearances {
  readonly rows: readonly (readonly AccountTxRow[])[];
  readonly numbers: IdNumbers;
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
    for (const m of g.microBlocks) byIndex[m.microIndex] = Number(m.timeMs / DAY_MS);
    days.set(g.keyBlock.height, byIndex);
  }
  const first = new Map<number, { height: number; microIndex: number; txIndex: number; day: number }>();
  // the lowest height per interval and account, keyed `${by} ${start} ${account}`
  const active = new Map<string, { by: IntervalBy; start: number; account: number; height: number }>();
  for (const rows of batch.rows)
    for (const r of rows) {
      const account = batch.numbers.number(r.account);
      if ((account & 7) !== KEY_TAGS.ak) continue;
      const day = days.get(r.height)?.[r.microIndex];
      // the stored derivation joins each appearance with its micro block: one without is not seen
      if (day === undefined) continue;
      const f = first.get(account);
      if (
        f === undefined ||
        r.height < f.height ||
        (r.height === f.height &&
          (r.microIndex < f.microIndex || (r.microIndex === f.microIndex && r.txIndex < f.txIndex)))
      )
        first.set(account, { height: r.height, microIndex: r.microIndex, txIndex: r.txIndex, day });
      for (const by of INTERVALS) {
        const start = intervalOf(day, by);
        const key = `${by} ${start} ${account}`;
        const a = active.get(key);
        if (a === undefined) active.set(key, { by, start, account, height: r.height });
        else if (r.height < a.height) a.height = r.height;
      }
    }
  return {
    firstSeen: [...first].map(([account, f]) => ({ account, height: f.height, day: f.day })),
    active: [...active.values()].map((a) => ({
      intervalBy: a.by,
      start: a.start,
      account: a.account,
      height: a.height,
    })),
  };
}
