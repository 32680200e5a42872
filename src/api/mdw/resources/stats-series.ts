/**
 * @module ae_mdw's statistics time series and /v3/stats figures from stored counts. Pure.
 * A series lists every interval between its first and last start, the empty ones with count 0.
 */
import { intervalDates, type IntervalBy } from '../../../chain/stats-intervals.ts';
import type { Fetch, Keyed } from './page.ts';

/** An interval and its count. */
export interface IntervalPoint {
  readonly start: number;
  readonly count: bigint;
}

/**
 * seriesFetch walks every interval from `first` to `last` (inclusive) with its count, 0 where none is stored, as the
 * page engine asks, keyed by interval start: each page renders its own intervals only, as ae_mdw streams a series
 * with the empty intervals filled in, so a range of any size (`max_start_date=9999-12-31`) costs one page's work.
 */
export function seriesFetch<T>(
  counts: ReadonlyMap<number, bigint>,
  first: number,
  last: number,
  render: (point: IntervalPoint) => T,
): Fetch<number, T> {
  return ({ walk, from, n }) => {
    const out: Keyed<number, T>[] = [];
    const point = (start: number): Keyed<number, T> => ({
      key: start,
      item: render({ start, count: counts.get(start) ?? 0n }),
    });
    if (walk === 'forward')
      for (let s = Math.max(first, from ?? first); s <= last && out.length < n; s++) out.push(point(s));
    else for (let s = Math.min(last, from ?? last); s >= first && out.length < n; s--) out.push(point(s));
    return Promise.resolve(out);
  };
}

/**
 * averageSeries divides each interval's sum by its number of key blocks, rounded half up (ae_mdw's
 * difficulty and hashrate per interval); 0 where no key block was mined.
 */
export function averageSeries(
  sums: ReadonlyMap<number, bigint>,
  blocks: ReadonlyMap<number, bigint>,
): Map<number, bigint> {
  const averages = new Map<number, bigint>();
  for (const [start, n] of blocks) if (n > 0n) averages.set(start, (2n * (sums.get(start) ?? 0n) + n) / (2n * n));
  return averages;
}

/** statJson is ae_mdw's Stat object (keys in its order). */
export function statJson(
  point: IntervalPoint,
  by: IntervalBy,
): { count: bigint; end_date: string; start_date: string } {
  const { start_date, end_date } = intervalDates(point.start, by);
  return { count: point.count, end_date, start_date };
}

/**
 * arrayFetch walks a list sorted ascending by `compare` on its keys, as the page engine asks: from
 * the key (inclusive) or the list's end for the direction, up to n items.
 */
export function arrayFetch<K, T>(items: readonly Keyed<K, T>[], compare: (a: K, b: K) => number): Fetch<K, T> {
  return ({ walk, from, n }) => {
    const forward = walk === 'forward';
    let i: number;
    if (from === undefined) i = forward ? 0 : items.length - 1;
    else if (forward) {
      i = items.findIndex((it) => compare(it.key, from) >= 0);
      if (i < 0) i = items.length;
    } else i = findLastIndex(items, (it) => compare(it.key, from) <= 0);
    const out: Keyed<K, T>[] = [];
    for (; i >= 0 && i < items.length && out.length < n; i += forward ? 1 : -1) out.push(items[i]!);
    return Promise.resolve(out);
  };
}

function findLastIndex<T>(items: readonly T[], test: (t: T) => boolean): number {
  for (let i = items.length - 1; i >= 0; i--) if (test(items[i]!)) return i;
  return -1;
}

/** The transactions and fees of two consecutive 24-hour windows. */
export interface DayWindows {
  readonly last: { readonly count: number; readonly fees: string };
  readonly previous: { readonly count: number; readonly fees: string };
}

/**
 * trends are ae_mdw's 24-hour figures: the count and average fee of the last 24 hours, and each one's
 * change against the 24 hours before relative to the last (rounded to 2 decimals); all 0 without
 * transactions in the last 24 hours.
 */
export function trends(w: DayWindows): {
  last_24hs_transactions: number;
  transactions_trend: number;
  last_24hs_average_transaction_fees: number;
  fees_trend: number;
} {
  const count = w.last.count;
  if (count === 0)
    return { last_24hs_transactions: 0, transactions_trend: 0, last_24hs_average_transaction_fees: 0, fees_trend: 0 };
  const average = Number(w.last.fees) / count;
  const previousAverage = w.previous.count === 0 ? 0 : Number(w.previous.fees) / w.previous.count;
  const round2 = (x: number): number => Math.round(x * 100) / 100;
  return {
    last_24hs_transactions: count,
    transactions_trend: round2((count - w.previous.count) / count),
    last_24hs_average_transaction_fees: average,
    fees_trend: round2((average - previousAverage) / average),
  };
}
