/**
 * @module The populator's generation_txis rows (migrations 1003, 1046): the first txi of each generation, which
 * queries/txis.ts reads, and the byte size of the transactions below it, which /middleware/size/height reads.
 */
import type { Queryable } from '../connection/pool.ts';

/**
 * writeGenerationTxis records the first txi and the size below of each stored generation in from..to that has none,
 * counting on from generation from − 1 (written before, with all its micro blocks and transactions). Heights not all
 * stored from from − 1 to `to` (a sparse reload) get no row.
 */
export async function writeGenerationTxis(db: Queryable, from: number, to: number): Promise<void> {
  await db.query({
    name: 'mdw_write_generation_txis',
    text: `WITH gens AS (
             SELECT k.height, (SELECT coalesce(sum(m.tx_count), 0) FROM micro_blocks m WHERE m.height = k.height) AS n,
                    (SELECT coalesce(sum(t.size), 0) FROM transactions t WHERE t.height = k.height) AS size
               FROM key_blocks k WHERE k.height BETWEEN $1 - 1 AND $2),
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
           ON CONFLICT DO NOTHING`,
    values: [from, to],
  });
}
