/**
 * @module spend_heights (migration 1061): the spends of each height per UTC day, which the `spends` area writes from
 * the amounts it decoded (a batch's, or the stored transactions'); spend_days follows by its triggers.
 */
import { txTypeCode } from '../../chain/id-key.ts';
import type { Spend, SpendDayTotal } from '../../chain/spend-days.ts';
import { arrayText } from '../connection/array-text.ts';
import type { Queryable } from '../connection/pool.ts';

/** A stored spend before its amount is read: its height, its micro block's time and its stored form. */
export interface StoredSpend extends Omit<Spend, 'amount'> {
  readonly signed: Buffer;
}

/** storedSpendsOfHeights lists the stored SpendTx (outer type) of heights from..to. */
export async function storedSpendsOfHeights(db: Queryable, from: number, to: number): Promise<StoredSpend[]> {
  const { rows } = await db.query<{ height: number; micro_time_ms: string; signed: Buffer }>({
    name: 'mdw_stored_spends_of_heights',
    text: 'SELECT height, micro_time_ms, signed FROM transactions WHERE tx_type = $3 AND height BETWEEN $1 AND $2',
    values: [from, to, txTypeCode('SpendTx')],
  });
  return rows.map((r) => ({ height: r.height, microTimeMs: BigInt(r.micro_time_ms), signed: r.signed }));
}

/** deleteSpendHeights deletes the rows of heights from..to (before they are derived again). */
export async function deleteSpendHeights(db: Queryable, from: number, to: number): Promise<void> {
  await db.query('DELETE FROM spend_heights WHERE height BETWEEN $1 AND $2', [from, to]);
}

/**
 * addSpendHeights adds totals to their (height, day) rows: new rows for new heights, added to the stored ones where a
 * batch continues the stored top generation (its new micro blocks).
 */
export async function addSpendHeights(db: Queryable, totals: readonly SpendDayTotal[]): Promise<void> {
  if (totals.length === 0) return;
  await db.query({
    name: 'mdw_add_spend_heights',
    text: `INSERT INTO spend_heights AS s (height, day, count, amount)
           SELECT * FROM unnest($1::int[], $2::int[], $3::bigint[], $4::numeric[])
           ON CONFLICT (height, day) DO UPDATE SET count = s.count + excluded.count, amount = s.amount + excluded.amount`,
    values: [
      arrayText(totals.map((t) => t.height)),
      arrayText(totals.map((t) => t.day)),
      arrayText(totals.map((t) => t.count)),
      arrayText(totals.map((t) => t.amount)),
    ],
  });
}
