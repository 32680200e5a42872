/**
 * @module The transactions each stored height holds, from its micro blocks' counts (micro_blocks.tx_count, migration
 * 1000): what bounds a stretch the derive backfill takes (derived/gathered-stretch.ts) without reading a transaction.
 */
import type { Queryable } from '../connection/pool.ts';

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

/**
 * heightsTransactionCount counts the stored transactions of the heights from..to from their micro blocks' counts. The
 * derive backfill asks it at each step of a catch-up for the heights stored since its last step (a batch's): a range
 * scan of their micro blocks, planned once. transactionCountBetween (a few probes whatever the range's width) was
 * planned anew at every step, its custom plans taken over its generic one: 1.4 ms each, a tenth of the catch-up's
 * planning on the bench's chain.
 */
export async function heightsTransactionCount(db: Queryable, from: number, to: number): Promise<number> {
  const { rows } = await db.query<{ n: string }>({
    name: 'mdw_heights_transaction_count',
    text: 'SELECT coalesce(sum(tx_count), 0)::text AS n FROM micro_blocks WHERE height BETWEEN $1 AND $2',
    values: [from, to],
  });
  return Number(rows[0]!.n);
}
