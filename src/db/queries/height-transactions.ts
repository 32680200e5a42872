/**
 * @module The transactions each stored height holds, from its micro blocks' counts (micro_blocks.tx_count, migration
 * 1000): what bounds a stretch the derive backfill takes (derived/gathered-stretch.ts) without reading a transaction.
 */
import type { Queryable } from '../connection/pool.ts';
import { transactionCountBetween } from './txis.ts';

/** A stored height and the transactions its micro blocks hold. */
export interface HeightTransactions {
  readonly height: number;
  readonly transactions: number;
}

/** transactionsByHeight lists the stored heights of from..to that hold transactions, ascending, with their counts. */
export async function transactionsByHeight(db: Queryable, from: number, to: number): Promise<HeightTransactions[]> {
  const { rows } = await db.query<{ height: number; transactions: number }>({
    name: 'mdw_transactions_by_height',
    text: `SELECT height, sum(tx_count)::int AS transactions FROM micro_blocks
            WHERE height BETWEEN $1 AND $2 AND tx_count > 0 GROUP BY height ORDER BY height`,
    values: [from, to],
  });
  return rows;
}

/** heightsTransactionCount counts the stored transactions of the heights from..to (transactionCountBetween). */
export function heightsTransactionCount(db: Queryable, from: number, to: number): Promise<number> {
  const end = 2 ** 31 - 1;
  return transactionCountBetween(
    db,
    { height: from, microIndex: 0, txIndex: 0 },
    { height: to, microIndex: end, txIndex: end },
  );
}
