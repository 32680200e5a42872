/**
 * @module The statistics' series counts of a batch: those its own rows decide (blocks, transactions, difficulty and
 * hashrate), counted from the rows in memory, and those of what its statements derive (miners, names, contracts,
 * AEX-9 events), from the rows they return; the twin of the stored derivation's branches for them in
 * db/writes/stats-derive.ts: PostgreSQL then writes them instead of reading back the rows the batch has just
 * written (most of the statistics' cost, docs/benchmarks.md). Pure.
 */
import { utcDay } from '../../chain/stats-intervals.ts';
import type { CountedSeries, DerivedFigures } from '../../db/writes/stats-derive.ts';
import type { GenerationRows } from '../rows/rows.ts';

/** What the populator computes of a key block's compact target (chain/stats-intervals.ts). */
export interface KeyBlockFigures {
  readonly difficulty: bigint;
  readonly hashrate: bigint;
}

/**
 * typeSeries names a transaction type's series as the stored derivation does from the stored code (tx_type_name): by
 * the node's name, of a type this code does not know too (migration 1011).
 */
const typeSeries = new Map<string, string>();
function seriesOfType(type: string): string {
  let series = typeSeries.get(type);
  if (series === undefined) {
    series = `transactions:${type}`;
    typeSeries.set(type, series);
  }
  return series;
}

/**
 * DaySums sums counts per UTC day and series. A height's or a batch's rows fall on few days, so a map per day
 * (number keys, no key strings built per row), and counts are numbers (no bigint allocated per addition).
 */
class DaySums {
  readonly #days = new Map<number, Map<string, number | bigint>>();

  add(day: number, series: string, count: number | bigint): void {
    let sums = this.#days.get(day);
    if (sums === undefined) this.#days.set(day, (sums = new Map()));
    const s = sums.get(series);
    // the two kinds never meet: a series' counts are all numbers (blocks, transactions) or all bigints (the figures)
    sums.set(series, s === undefined ? count : typeof s === 'bigint' ? s + (count as bigint) : s + (count as number));
  }

  /** drain calls `each` for every sum that is not zero (as the SQL's HAVING) and empties the sums. */
  drain(each: (day: number, series: string, count: number | bigint) => void): void {
    for (const [day, sums] of this.#days)
      for (const [series, count] of sums) if (count !== 0 && count !== 0n) each(day, series, count);
    this.#days.clear();
  }
}

/**
 * countedSeries are the series counts of whole generations (ascending, none continuing a stored one): each key block
 * (blocks:key, blocks:all, its difficulty and hashrate, `figures` by height), each micro block (blocks:micro,
 * blocks:all) and each transaction (transactions, transactions:<type>), at the block's UTC day (a transaction's micro
 * block's); and of what the batch's statements `derived`: each miner a key block paid (miner:<id>, 1), its generation's
 * names activated and contracts created (names, contracts), at the key block's day, and the AEX-9 transfers, mints and
 * burns (aex9_transfers) at their micro block's. Summed per height, series and day, sums of zero left out as the SQL's
 * HAVING; and the same summed per series and day over the batch, from which the intervals (day, week, month) are
 * added: tens of rows for thousands.
 */
export function countedSeries(
  gens: readonly GenerationRows[],
  figures: ReadonlyMap<number, KeyBlockFigures>,
  derived: DerivedFigures,
): CountedSeries {
  const atKeyBlock = keyBlockCounts(derived);
  const aex9 = byHeight(derived.aex9Transfers);
  const rows = {
    heights: [] as number[],
    series: [] as string[],
    days: [] as number[],
    counts: [] as (number | bigint)[],
  };
  const height = new DaySums();
  const batch = new DaySums();
  for (const g of gens) {
    if (g.continuesAt !== undefined) throw new RangeError(`height ${g.keyBlock.height} continues a stored generation`);
    const h = g.keyBlock.height;
    const f = figures.get(h);
    if (f === undefined) throw new RangeError(`no difficulty for height ${h}`);
    // a day as the SQL's `floor(ms / 86400000)::int` has it (times are far below 2^53: Number is exact)
    const keyDay = utcDay(Number(g.keyBlock.timeMs));
    height.add(keyDay, 'blocks:key', 1);
    height.add(keyDay, 'blocks:all', 1);
    height.add(keyDay, 'difficulty', f.difficulty);
    height.add(keyDay, 'hashrate', f.hashrate);
    for (const [series, count] of atKeyBlock.get(h) ?? []) height.add(keyDay, series, count);
    const transfers = aex9.get(h);
    for (const m of g.microBlocks) {
      const day = utcDay(Number(m.timeMs));
      height.add(day, 'blocks:micro', 1);
      height.add(day, 'blocks:all', 1);
      const events = transfers?.get(m.microIndex);
      if (events !== undefined) height.add(day, 'aex9_transfers', events);
    }
    let ms: bigint | undefined;
    let day = 0;
    for (const t of g.transactions) {
      // a micro block's transactions share its time
      if (t.microTimeMs !== ms) day = utcDay(Number((ms = t.microTimeMs)));
      height.add(day, 'transactions', 1);
      height.add(day, seriesOfType(t.txType), 1);
    }
    height.drain((d, series, count) => {
      rows.heights.push(h);
      rows.series.push(series);
      rows.days.push(d);
      rows.counts.push(count);
      batch.add(d, series, count);
    });
  }
  const daySums = { series: [] as string[], days: [] as number[], counts: [] as (number | bigint)[] };
  batch.drain((d, series, count) => {
    daySums.series.push(series);
    daySums.days.push(d);
    daySums.counts.push(count);
  });
  return { rows, daySums };
}

/** keyBlockCounts are the derived series counted at a height's key block: its miners', its names' and contracts'. */
function keyBlockCounts(derived: DerivedFigures): Map<number, [series: string, count: number][]> {
  const out = new Map<number, [string, number][]>();
  const at = (height: number): [string, number][] => {
    let counts = out.get(height);
    if (counts === undefined) out.set(height, (counts = []));
    return counts;
  };
  for (const r of derived.miners) at(r.height).push([`miner:${r.miner}`, 1]);
  for (const g of derived.generations)
    at(g.height).push(['names', g.names_activated], ['contracts', g.contracts_created]);
  return out;
}

/** byHeight are the AEX-9 events' counts by height and micro index. */
function byHeight(rows: DerivedFigures['aex9Transfers']): Map<number, Map<number, number>> {
  const out = new Map<number, Map<number, number>>();
  for (const r of rows) {
    let micro = out.get(r.height);
    if (micro === undefined) out.set(r.height, (micro = new Map()));
    micro.set(r.micro_index, r.count);
  }
  return out;
}
