/**
 * @module An account's AE balance at the end of each day, week (from Monday) or month (UTC) in which it changed
 * (`/v3/accounts/{id}/balance/history?interval_by=`): each interval found by index probes from the one before it (its
 * last change before the interval's end, or its first after the interval's start), never a scan of the history.
 */
import {
  blockAtTime,
  firstChangeAfter,
  lastChangeAt,
  type BalanceChange,
} from '../../../db/queries/balance-changes.ts';
import type { KeyWindow, PageReader } from '../../../db/queries/positions.ts';

export type IntervalBy = 'day' | 'week' | 'month';
export const INTERVALS: readonly IntervalBy[] = ['day', 'week', 'month'];

const DAY_MS = 86_400_000;

/** An interval as days since 1970-01-01 (UTC): its first day, and the first day after it. */
export interface Interval {
  readonly start: number;
  readonly end: number;
}

/** intervalOf is the interval holding day `day` (days since the epoch, UTC). Pure. */
export function intervalOf(by: IntervalBy, day: number): Interval {
  if (by === 'day') return { start: day, end: day + 1 };
  // 1970-01-01 was a Thursday: a week starts 3 days before day 0's weekday
  if (by === 'week') {
    const start = day - ((day + 3) % 7);
    return { start, end: start + 7 };
  }
  const d = new Date(day * DAY_MS);
  const start = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1) / DAY_MS;
  return { start, end: Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1) / DAY_MS };
}

/** dayText is a day as `YYYY-MM-DD`. Pure. */
export const dayText = (day: number): string => new Date(day * DAY_MS).toISOString().slice(0, 10);

/** An interval's balance at its end, from its last change. */
export interface IntervalBalance {
  readonly interval: Interval;
  readonly last: BalanceChange;
}

/**
 * intervalBalances reads up to `n` intervals in which the account changed, walking from the interval holding day
 * `from` (inclusive; the history's end for the walk without one).
 */
export const intervalBalances: PageReader<{ account: string; by: IntervalBy }, number, IntervalBalance> = async (
  db,
  { account, by },
  { walk, from, n },
) => {
  const out: IntervalBalance[] = [];
  let day = from;
  while (out.length < n) {
    let last: BalanceChange | undefined;
    let interval: Interval;
    if (walk === 'backward') {
      const end = day === undefined ? undefined : await blockAtTime(db, intervalOf(by, day).end * DAY_MS - 1);
      if (day !== undefined && end === undefined) break;
      last = await lastChangeAt(db, account, end ?? { height: 2_147_483_647, microIndex: 2_147_483_647 });
      if (last === undefined) break;
      interval = intervalOf(by, Math.floor(Number(last.timeMs) / DAY_MS));
      day = interval.start - 1;
    } else {
      const before = day === undefined ? undefined : await blockAtTime(db, intervalOf(by, day).start * DAY_MS - 1);
      const first = await firstChangeAfter(db, account, before ?? { height: -1, microIndex: 2_147_483_647 });
      if (first === undefined) break;
      interval = intervalOf(by, Math.floor(Number(first.timeMs) / DAY_MS));
      const end = await blockAtTime(db, interval.end * DAY_MS - 1);
      last = end === undefined ? first : await lastChangeAt(db, account, end);
      if (last === undefined) break;
      day = interval.end;
    }
    out.push({ interval, last });
  }
  return out;
};

/**
 * openingInterval is the one interval of an account whose only change is `opening` (an untouched genesis account's
 * genesis balance, which no row holds: ae-balances.ts), where a walk through `window` reaches it: the interval holding
 * the change's time, walked from the interval holding day `from` (inclusive). Pure.
 */
export function openingInterval(
  by: IntervalBy,
  opening: BalanceChange,
  { walk, from, n }: KeyWindow<number>,
): IntervalBalance | undefined {
  const interval = intervalOf(by, Math.floor(Number(opening.timeMs) / DAY_MS));
  const start = from === undefined ? undefined : intervalOf(by, from).start;
  const reached = start === undefined || (walk === 'backward' ? start >= interval.start : start <= interval.start);
  return n > 0 && reached ? { interval, last: opening } : undefined;
}
