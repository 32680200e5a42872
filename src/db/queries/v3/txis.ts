/**
 * @module ae_mdw's transaction index (txi) from our positions: the txi of a transaction is the
 * number of transactions before it in chain order (height, micro index, tx index), kept per
 * generation in generation_txis (migration 0014).
 */
import type { Queryable } from '../../pool.ts';
import type { TxPosition } from './transactions.ts';

/**
 * writeGenerationTxis records the first txi of each stored generation in from..to that has none,
 * counting on from generation from − 1 (written before, with all its micro blocks). Heights
 * not all stored from from − 1 to `to` (a sparse reload) get no row.
 */
export async function writeGenerationTxis(db: Queryable, from: number, to: number): Promise<void> {
  await db.query({
    name: 'mdw_write_generation_txis',
    text: `WITH gens AS (
             SELECT k.height, (SELECT coalesce(sum(m.tx_count), 0) FROM micro_blocks m WHERE m.height = k.height) AS n
               FROM key_blocks k WHERE k.height BETWEEN $1 - 1 AND $2),
           base AS (
             SELECT CASE WHEN $1 = 0 THEN 0 ELSE (SELECT g.first_txi FROM generation_txis g WHERE g.height = $1 - 1) END AS txi)
           INSERT INTO generation_txis (height, first_txi)
           SELECT x.height, x.txi FROM (
             SELECT gens.height, base.txi + coalesce(sum(gens.n) OVER (ORDER BY gens.height ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0) AS txi
               FROM gens, base) x
            WHERE x.height >= $1 AND x.txi IS NOT NULL
              AND (SELECT count(*) FROM gens) = $2 - greatest($1 - 1, 0) + 1
           ON CONFLICT DO NOTHING`,
    values: [from, to],
  });
}

/** txisBefore is the txi of the first transaction of a micro block (the count of transactions before it). */
export async function txisBefore(db: Queryable, height: number, microIndex: number): Promise<number> {
  const { rows } = await db.query<{ n: string | null }>({
    name: 'mdw_v3_txis_before',
    text: `SELECT coalesce((SELECT first_txi FROM generation_txis WHERE height = $1),
                           (SELECT sum(tx_count) FROM micro_blocks WHERE height < $1))
                  + (SELECT coalesce(sum(tx_count), 0) FROM micro_blocks WHERE height = $1 AND micro_index < $2) AS n`,
    values: [height, microIndex],
  });
  return Number(rows[0]?.n ?? 0);
}

/** positionOfTxi is the position of the transaction with txi `txi`, undefined past the last one. */
export async function positionOfTxi(db: Queryable, txi: number): Promise<TxPosition | undefined> {
  const { rows } = await db.query<{ height: number; micro_index: number; tx_index: number }>({
    name: 'mdw_v3_position_of_txi',
    text: `SELECT g.height, m.micro_index, ($1 - g.first_txi - m.before)::int AS tx_index
             FROM (SELECT height, first_txi FROM generation_txis WHERE first_txi <= $1
                    ORDER BY first_txi DESC, height DESC LIMIT 1) g
             CROSS JOIN LATERAL (SELECT micro_index, tx_count,
                                        coalesce(sum(tx_count) OVER (ORDER BY micro_index ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0) AS before
                                   FROM micro_blocks WHERE height = g.height) m
            WHERE $1 - g.first_txi >= m.before AND $1 - g.first_txi < m.before + m.tx_count`,
    values: [txi],
  });
  const r = rows[0];
  return r && { height: r.height, microIndex: r.micro_index, txIndex: r.tx_index };
}

const EMPTY = {
  from: { height: 2 ** 31 - 1, microIndex: 0, txIndex: 0 },
  to: { height: 0, microIndex: 0, txIndex: 0 },
};

/** positionsOfTxis turns txis first..last into the positions of those transactions (an empty range past the last one). */
export async function positionsOfTxis(
  db: Queryable,
  first: number,
  last: number,
): Promise<{ from: TxPosition; to: TxPosition }> {
  const [from, to] = await Promise.all([positionOfTxi(db, first), positionOfTxi(db, last)]);
  if (from === undefined) return EMPTY;
  return { from, to: to ?? { height: 2 ** 31 - 1, microIndex: 0, txIndex: 0 } };
}
