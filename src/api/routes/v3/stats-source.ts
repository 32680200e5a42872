/**
 * @module The statistics a server keeps in memory per stored chain: each series' counts and the
 * chain's time range, read once per stored top and reused until a new block or a fork changes it.
 */
import type { Queryable } from '../../../db/pool.ts';
import { chainTimeRange, seriesIntervals, statsVersion } from '../../../db/queries/v3/stats.ts';
import { utcDay, type IntervalBy } from '../../../chain/stats-intervals.ts';

/** The stored chain's first and last days, or undefined when nothing is stored. */
export type DayRange = { readonly first: number; readonly last: number } | undefined;

/** What one request reads: values of one stored chain. */
export interface StatsSnapshot {
  /** the series' nonzero counts by interval start */
  series(name: string, by: IntervalBy): Promise<ReadonlyMap<number, bigint>>;
  days(): Promise<DayRange>;
}

/** MAX_ENTRIES bounds the kept values (series × interval kinds; tx types and miners make them many). */
const MAX_ENTRIES = 500;

/**
 * StatsSource answers from memory while the stored chain stays the same: each request asks the
 * database only for the chain's version (its top key block and last micro block, one index read),
 * and drops what it kept when the version changed. Reads that started under an older version
 * finish for their own request but are not kept.
 */
export class StatsSource {
  readonly #db: Queryable;
  #version: string | undefined;
  #values = new Map<string, Promise<unknown>>();

  constructor(db: Queryable) {
    this.#db = db;
  }

  /** snapshot checks the stored chain's version and gives the reads of that version. */
  async snapshot(): Promise<StatsSnapshot> {
    const version = await statsVersion(this.#db);
    if (version !== this.#version) {
      this.#version = version;
      this.#values = new Map();
    }
    const values = this.#values;
    const keep = <T>(key: string, read: () => Promise<T>): Promise<T> => {
      let value = values.get(key) as Promise<T> | undefined;
      if (value === undefined) {
        value = read();
        if (values.size >= MAX_ENTRIES) values.delete(values.keys().next().value!);
        values.set(key, value);
        value.catch(() => values.delete(key));
      }
      return value;
    };
    return {
      series: (name, by) =>
        keep(`series ${by} ${name}`, async () => {
          const rows = await seriesIntervals(this.#db, name, by);
          return new Map(rows.map((r) => [r.start, BigInt(r.count)]));
        }),
      days: () =>
        keep('days', async () => {
          const range = await chainTimeRange(this.#db);
          return range && { first: utcDay(range.firstMs), last: utcDay(range.lastMs) };
        }),
    };
  }
}
