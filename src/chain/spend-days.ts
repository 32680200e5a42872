/**
 * @module The spends (outer SpendTx) of each height per UTC day of its micro blocks' time, counted and their amounts
 * summed exactly: what the populator keeps (migration 1061) and what /middleware/transactions/rate sums. Pure.
 */
import { toBigInt } from './json.ts';
import { renderStoredTx } from './stored-tx.ts';
import { utcDay } from './stats-intervals.ts';

/** One spend: its height, its micro block's time and its amount. */
export interface Spend {
  readonly height: number;
  readonly microTimeMs: bigint;
  readonly amount: bigint;
}

/** The spends of one height on one UTC day (days since 1970-01-01). */
export interface SpendDayTotal {
  readonly height: number;
  readonly day: number;
  readonly count: number;
  readonly amount: bigint;
}

/** spendAmount is the `amount` of a SpendTx's fields (0 where a layout carries none, as the route always read it). */
export function spendAmount(tx: { readonly amount?: unknown }): bigint {
  return toBigInt(tx.amount ?? 0);
}

/** storedSpendAmount is the amount of a stored SpendTx, read from its stored form (transactions.signed). */
export function storedSpendAmount(signed: Uint8Array): bigint {
  return spendAmount(renderStoredTx(signed).tx);
}

/** spendsPerHeightDay counts and sums spends per height and UTC day, in (height, day) order. */
export function spendsPerHeightDay(spends: Iterable<Spend>): SpendDayTotal[] {
  // times are far below 2^53 ms: Number is exact (as the statistics' days)
  const totals = [...spends].map((s) => ({
    height: s.height,
    day: utcDay(Number(s.microTimeMs)),
    count: 1,
    amount: s.amount,
  }));
  return addedUp(totals, (t) => `${t.height}:${t.day}`).sort((a, b) => a.height - b.height || a.day - b.day);
}

/** spendsPerDay adds up totals (of heights, or of days) per day, in day order. */
export function spendsPerDay(
  totals: Iterable<{ readonly day: number; readonly count: number; readonly amount: bigint }>,
): { day: number; count: number; amount: bigint }[] {
  const days = [...totals].map((t) => ({ day: t.day, count: t.count, amount: t.amount }));
  return addedUp(days, (t) => t.day).sort((a, b) => a.day - b.day);
}

/** addedUp sums the counts and amounts of the totals that share a key into the first of them (which it changes). */
function addedUp<T extends { count: number; amount: bigint }>(
  totals: readonly T[],
  key: (t: T) => string | number,
): T[] {
  const sums = new Map<string | number, T>();
  for (const t of totals) {
    const sum = sums.get(key(t));
    if (sum === undefined) sums.set(key(t), t);
    else {
      sum.count += t.count;
      sum.amount += t.amount;
    }
  }
  return [...sums.values()];
}
