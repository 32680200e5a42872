/**
 * @module The statistics' series counts a batch's own rows decide (blocks, transactions, difficulty and hashrate),
 * counted from the rows in memory, the twin of the stored derivation's branches for them in
 * db/queries/v3/stats-derive.ts: PostgreSQL then writes them instead of reading back the rows the batch has just
 * written (most of the statistics' cost, docs/benchmarks.md). Pure.
 */
import { txTypeOfCode, txTypeCode } from '../chain/id-key.ts';
import type { CountedSeries, SeriesCount } from '../db/queries/v3/stats-derive.ts';
import type { GenerationRows } from './rows.ts';

const DAY_MS = 86_400_000n;
/** dayOf is the UTC day (since 1970-01-01) of a time in ms as the SQL's `floor(ms / 86400000)::int` has it (bigint division). */
const dayOf = (ms: bigint): number => Number(ms / DAY_MS);

/** What the populator computes of a key block's compact target (chain/stats-intervals.ts). */
export interface KeyBlockFigures {
  readonly difficulty: bigint;
  readonly hashrate: bigint;
}

/**
 * typeSeries names a transaction type's series as the stored derivation does from the stored code (tx_type_name of
 * txTypeCode): a type this code does not know has no code and no name there, and its batch fails in both.
 */
const typeSeries = new Map<string, string>();
function seriesOfType(type: string): string {
  let series = typeSeries.get(type);
  if (series === undefined) {
    series = `transactions:${txTypeOfCode(txTypeCode(type))}`;
    typeSeries.set(type, series);
  }
  return series;
}

/**
 * batchSeriesCounts are the series counts of whole generations (ascending, none continuing a stored one): each
 * key block (blocks:key, blocks:all, its difficulty and hashrate, `figures` by height), each micro block
 * (blocks:micro, blocks:all) and each transaction (transactions, transactions:<type>), at the block's UTC day (a
 * transaction's micro block's), summed per height, series and day; sums of zero are left out, as the SQL's HAVING.
 */
export function batchSeriesCounts(
  gens: readonly GenerationRows[],
  figures: ReadonlyMap<number, KeyBlockFigures>,
): SeriesCount[] {
  const out: SeriesCount[] = [];
  // one height's sums, keyed by day and series (a height's rows fall on one or two days)
  const sums = new Map<string, { series: string; day: number; count: bigint }>();
  const add = (series: string, day: number, count: bigint): void => {
    const key = `${day}\u0000${series}`;
    const s = sums.get(key);
    if (s === undefined) sums.set(key, { series, day, count });
    else s.count += count;
  };
  for (const g of gens) {
    if (g.continuesAt !== undefined) throw new RangeError(`height ${g.keyBlock.height} continues a stored generation`);
    const height = g.keyBlock.height;
    const f = figures.get(height);
    if (f === undefined) throw new RangeError(`no difficulty for height ${height}`);
    const keyDay = dayOf(g.keyBlock.timeMs);
    add('blocks:key', keyDay, 1n);
    add('blocks:all', keyDay, 1n);
    add('difficulty', keyDay, f.difficulty);
    add('hashrate', keyDay, f.hashrate);
    for (const m of g.microBlocks) {
      const day = dayOf(m.timeMs);
      add('blocks:micro', day, 1n);
      add('blocks:all', day, 1n);
    }
    for (const t of g.transactions) {
      const day = dayOf(t.microTimeMs);
      add('transactions', day, 1n);
      add(seriesOfType(t.txType), day, 1n);
    }
    for (const s of sums.values()) if (s.count !== 0n) out.push({ height, ...s });
    sums.clear();
  }
  return out;
}

/**
 * countedSeries are a batch's series counts (batchSeriesCounts) with their sums per series and UTC day, from which
 * the intervals (day, week, month) are added: tens of rows for the thousands of a batch.
 */
export function countedSeries(
  gens: readonly GenerationRows[],
  figures: ReadonlyMap<number, KeyBlockFigures>,
): CountedSeries {
  const rows = batchSeriesCounts(gens, figures);
  const sums = new Map<string, { series: string; day: number; count: bigint }>();
  for (const r of rows) {
    const key = `${r.day}\u0000${r.series}`;
    const s = sums.get(key);
    if (s === undefined) sums.set(key, { series: r.series, day: r.day, count: r.count });
    else s.count += r.count;
  }
  return { rows, daySums: [...sums.values()] };
}
