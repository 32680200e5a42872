/** @module The populator's generation_txis rows (migration 1003): the first txi of each generation, which queries/txis.ts reads. */
import type { Queryable } from '../pool.ts';

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
