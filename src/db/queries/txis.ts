/**
 * @module ae_mdw's transaction index (txi) from our positions: the txi of a transaction is the
 * number of transactions before it in chain order (height, micro index, tx index), kept per
 * generation in generation_txis (migration 1003).
 */
import { concurrently, type Queryable } from '../connection/pool.ts';
import type { TxPosition } from './positions.ts';

/**
 * txisBeforeBlocks is the txi of the first transaction of each micro block (the count of transactions before it), in one
 * statement, keyed `height:microIndex`.
 */
export async function txisBeforeBlocks(
  db: Queryable,
  blocks: readonly { height: number; microIndex: number }[],
): Promise<Map<string, number>> {
  if (blocks.length === 0) return new Map();
  const { rows } = await db.query<{ height: number; micro_index: number; n: string | null }>({
    name: 'mdw_v3_txis_before_blocks',
    text: `SELECT b.height, b.micro_index,
                  coalesce((SELECT first_txi FROM generation_txis WHERE height = b.height),
                           (SELECT sum(tx_count) FROM micro_blocks WHERE height < b.height))
                  + (SELECT coalesce(sum(tx_count), 0) FROM micro_blocks
                      WHERE height = b.height AND micro_index < b.micro_index) AS n
             FROM (SELECT DISTINCT height, micro_index FROM unnest($1::int[], $2::int[]) AS u(height, micro_index)) b`,
    values: [blocks.map((b) => b.height), blocks.map((b) => b.microIndex)],
  });
  return new Map(rows.map((r) => [`${r.height}:${r.micro_index}`, Number(r.n ?? 0)]));
}

/** txiOfHash is the txi of a stored transaction, undefined for a hash not stored. */
export async function txiOfHash(db: Queryable, hash: string): Promise<number | undefined> {
  const { rows } = await db.query<{ txi: string }>({
    name: 'mdw_v3_txi_of_hash',
    text: `SELECT coalesce((SELECT first_txi FROM generation_txis WHERE height = t.height),
                           (SELECT sum(tx_count) FROM micro_blocks WHERE height < t.height))
                  + (SELECT coalesce(sum(tx_count), 0) FROM micro_blocks m
                      WHERE m.height = t.height AND m.micro_index < t.micro_index)
                  + t.tx_index AS txi
             FROM transactions t WHERE t.hash = $1`,
    values: [hash],
  });
  return rows[0] === undefined ? undefined : Number(rows[0].txi);
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
  const [from, to] = await concurrently(db, [() => positionOfTxi(db, first), () => positionOfTxi(db, last)]);
  if (from === undefined) return EMPTY;
  return { from, to: to ?? { height: 2 ** 31 - 1, microIndex: 0, txIndex: 0 } };
}

/**
 * transactionCountBetween counts the stored transactions from `lo` to `hi`, both included, as the difference of two txis:
 * each is its generation's first txi (generation_txis) plus its micro blocks' counts and its own index, a few probes
 * whatever the range's width. A bound above the top stands for the top's end; a height without its generation_txis
 * row (a sparse reload) sums the micro blocks below it instead, as txiOfHash does.
 */
export async function transactionCountBetween(db: Queryable, lo: TxPosition, hi: TxPosition): Promise<number> {
  const { rows } = await db.query<{ n: string }>({
    name: 'mdw_v3_transaction_count_between',
    text: `SELECT greatest(0, sum(CASE WHEN t.last THEN t.txi ELSE -t.txi END))::text AS n FROM (
             SELECT p.last,
                    coalesce((SELECT first_txi FROM generation_txis WHERE height = p.height),
                             (SELECT sum(tx_count) FROM micro_blocks WHERE height < p.height), 0)
                    + (SELECT coalesce(sum(tx_count), 0) FROM micro_blocks
                        WHERE height = p.height AND micro_index < p.micro_index)
                    + (SELECT count(*) FROM transactions
                        WHERE height = p.height AND micro_index = p.micro_index
                          AND (tx_index < p.tx_index OR (p.last AND tx_index = p.tx_index))) AS txi
               FROM (SELECT b.last, least(b.height, k.top) AS height,
                            CASE WHEN b.height > k.top THEN $7::int ELSE b.micro_index END AS micro_index,
                            CASE WHEN b.height > k.top THEN $7::int ELSE b.tx_index END AS tx_index
                       FROM (VALUES (false, $1::int, $2::int, $3::int), (true, $4::int, $5::int, $6::int))
                              AS b(last, height, micro_index, tx_index),
                            (SELECT coalesce((SELECT height FROM key_blocks ORDER BY height DESC LIMIT 1), 0) AS top) k) p
           ) t`,
    values: [lo.height, lo.microIndex, lo.txIndex, hi.height, hi.microIndex, hi.txIndex, 2 ** 31 - 1],
  });
  return Number(rows[0]?.n ?? 0);
}
