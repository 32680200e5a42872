/**
 * @module The populator's generation_txis rows (migrations 1003, 1046): the first txi of each generation, which
 * queries/txis.ts reads, and the byte size of the transactions below it, which /middleware/size/height reads.
 */
import { arrayText } from '../connection/array-text.ts';
import type { Queryable } from '../connection/pool.ts';

/** A batch's generations' transactions and their bytes, counted from its rows in memory (column by column). */
export interface GenerationTotals {
  readonly heights: readonly number[];
  /** the generation's micro blocks' transaction counts, summed */
  readonly txs: readonly number[];
  /** its transactions' stored sizes, summed */
  readonly sizes: readonly number[];
}

/** gensFrom is the generations from `from` − 1 to $2 with their transactions (n) and bytes (size). */
const gensFrom = (counted: boolean): string => {
  const stored = (heights: string): string =>
    `SELECT k.height, (SELECT coalesce(sum(m.tx_count), 0) FROM micro_blocks m WHERE m.height = k.height) AS n,
                    (SELECT coalesce(sum(t.size), 0) FROM transactions t WHERE t.height = k.height) AS size
               FROM key_blocks k WHERE ${heights}`;
  // the batch's own from memory ($3..$5): generation from − 1 alone read back
  return counted
    ? `${stored('k.height = $1 - 1')}
             UNION ALL SELECT * FROM unnest($3::int[], $4::bigint[], $5::bigint[])`
    : stored('k.height BETWEEN $1 - 1 AND $2');
};

/** The statement of writeGenerationTxis, reading the batch's generations back or given them (`counted`). */
const writeSql = (counted: boolean): string => `WITH gens AS (
             ${gensFrom(counted)}),
           base AS (
             SELECT b.first_txi AS txi, b.size_before AS size
               FROM (SELECT 0::bigint AS first_txi, 0::bigint AS size_before WHERE $1 = 0
                     UNION ALL SELECT g.first_txi, g.size_before FROM generation_txis g WHERE g.height = $1 - 1) b)
           INSERT INTO generation_txis (height, first_txi, size_before)
           SELECT x.height, x.txi, x.size FROM (
             SELECT gens.height, base.txi + coalesce(sum(gens.n) OVER below, 0) AS txi,
                    base.size + coalesce(sum(gens.size) OVER below, 0) AS size
               FROM gens, base
             WINDOW below AS (ORDER BY gens.height ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING)) x
            WHERE x.height >= $1
              AND (SELECT count(*) FROM gens) = $2 - greatest($1 - 1, 0) + 1
           ON CONFLICT DO NOTHING`;

/**
 * writeGenerationTxis records the first txi and the size below of each stored generation in from..to that has none,
 * counting on from generation from − 1 (written before, with all its micro blocks and transactions). Heights not all
 * stored from from − 1 to `to` (a sparse reload) get no row. `counted`: the generations from..to as the batch has just
 * written them, whole, counted in memory (generationTotals), where the statement read back each one's micro blocks and
 * transactions (its transactions' sizes a heap fetch each).
 */
export async function writeGenerationTxis(
  db: Queryable,
  from: number,
  to: number,
  counted?: GenerationTotals,
): Promise<void> {
  if (counted === undefined)
    await db.query({ name: 'mdw_write_generation_txis', text: writeSql(false), values: [from, to] });
  else
    await db.query({
      name: 'mdw_write_generation_txis_counted',
      text: writeSql(true),
      values: [from, to, arrayText(counted.heights), arrayText(counted.txs), arrayText(counted.sizes)],
    });
}
