/**
 * @module /middleware/transactions/rate: the spends (outer SpendTx) per UTC day of the micro block time, counted and
 * their amounts summed exactly, from the days migration 1061 keeps (at most one row a day); the heights the `spends`
 * area has not derived yet (the backfill after the migration, an area that fails) are read and decoded as before.
 */
import { txTypeCode } from '../../chain/id-key.ts';
import { spendsPerDay, spendsPerHeightDay, storedSpendAmount } from '../../chain/spend-days.ts';
import { DAY_MS, isoDate } from '../../chain/stats-intervals.ts';
import { withSnapshot, type Pool, type Queryable } from '../connection/pool.ts';
import { pendingBackfills } from './pending-backfills.ts';

/** A day of spend activity. */
export interface SpendRate {
  readonly date: string;
  readonly count: number;
  readonly amount: string;
}

/** spendRates counts the spends and sums their amounts per UTC day, days fromDay ≤ day < toDay (since 1970-01-01). */
export async function spendRates(pool: Pool, fromDay: number, toDay: number): Promise<SpendRate[]> {
  // one snapshot: the kept days, and the heights the area has not derived (and what they may hold of it) alike
  const days = await withSnapshot(pool, async (db) => {
    const kept = await keptDays(db, 'SELECT day, count, amount FROM spend_days WHERE day >= $1 AND day < $2', [
      fromDay,
      toDay,
    ]);
    const pending = (await pendingBackfills(db)).find((p) => p.area === 'spends');
    if (pending === undefined) return kept;
    // the pending heights' own rows, if any (a continued generation whose derivation failed), give way to their decoding
    const stale = await keptDays(
      db,
      `SELECT day, sum(count) AS count, sum(amount) AS amount FROM spend_heights
        WHERE height BETWEEN $3 AND $4 AND day >= $1 AND day < $2 GROUP BY day`,
      [fromDay, toDay, pending.next, pending.to],
    );
    const underived = await spendsNotKept(db, pending, fromDay * DAY_MS, toDay * DAY_MS);
    return [
      ...kept,
      ...stale.map((d) => ({ day: d.day, count: -d.count, amount: -d.amount })),
      ...spendsPerHeightDay(underived),
    ];
  });
  return spendsPerDay(days)
    .filter((d) => d.count > 0)
    .map((d) => ({ date: isoDate(d.day), count: d.count, amount: d.amount.toString() }));
}

/** keptDays reads kept totals per day (`day`, `count`, `amount`). */
async function keptDays(
  db: Queryable,
  sql: string,
  values: readonly number[],
): Promise<{ day: number; count: number; amount: bigint }[]> {
  const { rows } = await db.query<{ day: number; count: string; amount: string }>(sql, [...values]);
  return rows.map((r) => ({ day: r.day, count: Number(r.count), amount: BigInt(r.amount) }));
}

/**
 * spendsNotKept reads and decodes the spends of the heights next..to (those the area lacks) whose micro block time is
 * fromMs ≤ time < toMs; the key blocks' times bound the heights read to the window's.
 */
async function spendsNotKept(
  db: Queryable,
  heights: { readonly next: number; readonly to: number },
  fromMs: number,
  toMs: number,
): Promise<{ height: number; microTimeMs: bigint; amount: bigint }[]> {
  const { rows } = await db.query<{ height: number; micro_time_ms: string; signed: Buffer }>(
    `WITH bounds AS (
       SELECT greatest($1, (SELECT max(height) FROM key_blocks WHERE time_ms <= $3)) AS lo,
              least($2, (SELECT min(height) FROM key_blocks WHERE time_ms >= $4)) AS hi)
     SELECT t.height, t.micro_time_ms, t.signed
       FROM transactions t, bounds b
      WHERE t.tx_type = $5 AND t.height BETWEEN b.lo AND b.hi AND t.micro_time_ms >= $3 AND t.micro_time_ms < $4`,
    [heights.next, heights.to, fromMs, toMs, txTypeCode('SpendTx')],
  );
  return rows.map((r) => ({
    height: r.height,
    microTimeMs: BigInt(r.micro_time_ms),
    amount: storedSpendAmount(r.signed),
  }));
}
