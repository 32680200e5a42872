/**
 * @module tx_type_totals (migrations 1015, 1154): the writer adds its batch's transactions per outer type, counted and
 * their bytes summed, beside their COPY; the triggers of transactions keep the table for deletes (a fork, a -H reload)
 * and updates (a learned type's retype).
 */
import type { Queryable } from '../connection/pool.ts';

/** A batch's transactions of one outer type (its code, chain/id-key.ts): how many, and their stored bytes. */
export interface TxTypeTotal {
  readonly code: number;
  readonly n: number;
  readonly size: number;
}

/** addTxTypeTotals adds transactions just written to their types' totals (a type met first gets its row). */
export async function addTxTypeTotals(db: Queryable, totals: readonly TxTypeTotal[]): Promise<void> {
  if (totals.length === 0) return;
  await db.query({
    name: 'mdw_add_tx_type_totals',
    text: `INSERT INTO tx_type_totals AS k (tx_type, n, size)
           SELECT * FROM unnest($1::smallint[], $2::bigint[], $3::bigint[])
           ON CONFLICT (tx_type) DO UPDATE SET n = k.n + EXCLUDED.n, size = k.size + EXCLUDED.size`,
    values: [totals.map((t) => t.code), totals.map((t) => t.n), totals.map((t) => t.size)],
  });
}
