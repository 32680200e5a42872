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
  const totals = new Map<string, { height: number; day: number; count: number; amount: bigint }>();
  for (const s of spends) {
    // times are far below 2^53 ms: Number is exact (as the statistics' days)
    const day = utcDay(Number(s.microTimeMs));
    const key = `${s.height}:${day}`;
    const total = totals.get(key);
    if (total === undefined) totals.set(key, { height: s.height, day, count: 1, amount: s.amount });
    else {
      total.count += 1;
      total.amount += s.amount;
    }
  }
  return [...totals.values()].sort((a, b) => a.height - b.height || a.day - b.day);
}

/** spendsPerDay adds up totals (of heights, or of days) per day, in day order. */
export function spendsPerDay(
  totals: Iterable<{ readonly day: number; readonly count: number; readonly amount: bigint }>,
): { day: number; count: number; amount: bigint }[] {
  const days = new Map<number, { day: number; count: number; amount: bigint }>();
  for (const t of totals) {
    const day = days.get(t.day);
    if (day === undefined) days.set(t.day, { day: t.day, count: t.count, amount: t.amount });
    else {
      day.count += t.count;
      day.amount += t.amount;
    }
  }
  return [...days.values()].sort((a, b) => a.day - b.day);
}
