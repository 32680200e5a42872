/**
 * @module The statistics a server keeps in memory per stored chain: each series' counts and the
 * chain's time range, read once per stored top and reused until a new block or a fork changes it.
 */
import type { Queryable } from '../../../db/connection/pool.ts';
import type { NotificationListener } from '../../../events/listener.ts';
import { chainTimeRange, seriesIntervals, statsVersion } from '../../../db/queries/stats.ts';
import { utcDay, type IntervalBy } from '../../../chain/stats-intervals.ts';

/** The stored chain's first and last days, or undefined when nothing is stored. */
export type DayRange = { readonly first: number; readonly last: number } | undefined;

/** What one request reads: values of one stored chain. */
export interface StatsSnapshot {
  /** the series' nonzero counts by interval start */
  series(name: string, by: IntervalBy): Promise<ReadonlyMap<number, bigint>>;
  days(): Promise<DayRange>;
  /**
   * memo keeps what `make` computes from this version's reads under `key` (an averaged series); keys come from a
   * fixed set (never from a client's range), so what is kept stays bounded
   */
  memo<T>(key: string, make: () => Promise<T>): Promise<T>;
}

/**
 * MAX_BYTES bounds what is kept, estimated at ENTRY_BYTES per interval of a kept series (a Map entry of a number
 * and a bigint): the series of every transaction type by day, week and month of a mainnet-sized chain fit.
 */
const MAX_BYTES = 32 * 1024 * 1024;
const ENTRY_BYTES = 100;

/** estimatedBytes is what a kept value holds in memory, roughly: its intervals, or one entry's worth. */
function estimatedBytes(value: unknown): number {
  return value instanceof Map ? (value.size + 1) * ENTRY_BYTES : ENTRY_BYTES;
}

/**
 * StatsSource answers from memory while the stored chain stays the same. With the server's
 * notification listener, a request asks the database nothing until the populator announces a
 * commit (or the listen connection is lost); without one (or while it is lost) each request reads
 * the chain's version (its top key block and last micro block, one index read). A changed version
 * drops what was kept. Reads that started under an older version finish for their own request but
 * are not kept.
 */
export class StatsSource {
  readonly #db: Queryable;
  readonly #listener: NotificationListener | undefined;
  #version: string | undefined;
  #values = new Map<string, Promise<unknown>>();
  /** estimated bytes of each settled kept value (in #values' order of insertion) and their sum */
  #sizes = new Map<string, number>();
  #bytes = 0;
  /** notifications heard so far; the version read is trusted while this stays what it was then */
  #heard = 0;
  #trustedAt: number | undefined;

  constructor(db: Queryable, listener?: NotificationListener) {
    this.#db = db;
    this.#listener = listener;
    listener?.subscribe({
      onNotification: () => void this.#heard++,
      onLost: () => void this.#heard++,
      onReconnected: () => void this.#heard++,
    });
  }

  /** #kept counts a settled value's bytes and drops the oldest kept values while the sum is over MAX_BYTES. */
  #kept(values: Map<string, Promise<unknown>>, key: string, bytes: number): void {
    // a value read under an older version is not kept
    if (values !== this.#values || values.get(key) === undefined) return;
    this.#sizes.set(key, bytes);
    this.#bytes += bytes;
    for (const [oldest, size] of this.#sizes) {
      if (this.#bytes <= MAX_BYTES) break;
      this.#sizes.delete(oldest);
      values.delete(oldest);
      this.#bytes -= size;
    }
  }

  /** snapshot gives the reads of the stored chain's current version. */
  async snapshot(): Promise<StatsSnapshot> {
    if (this.#trustedAt !== this.#heard || !this.#listener?.listening) {
      const heard = this.#heard;
      const version = await statsVersion(this.#db);
      if (version !== this.#version) {
        this.#version = version;
        this.#values = new Map();
        this.#sizes = new Map();
        this.#bytes = 0;
      }
      this.#trustedAt = this.#listener?.listening ? heard : undefined;
    }
    const values = this.#values;
    const keep = <T>(key: string, read: () => Promise<T>): Promise<T> => {
      let value = values.get(key) as Promise<T> | undefined;
      if (value === undefined) {
        value = read();
        values.set(key, value);
        value.then(
          (v) => this.#kept(values, key, estimatedBytes(v)),
          () => values.delete(key),
        );
      }
      return value;
    };
    return {
      memo: (key, make) => keep(`memo ${key}`, make),
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
