-- The chain's size up to any height (/middleware/size/height/{h}; issue 57) without summing every transaction below
-- it: beside each generation's first txi (generation_txis, migration 1003) the byte size of the transactions below it,
-- which the populator writes in the same statement and transaction as the first txi (src/db/writes/generation-txis.ts),
-- so the height cascade removes both with a fork's or a reload's heights and `mdw -v` recounts both. A height below the
-- top reads the next generation's row; the top reads tx_type_totals (migration 1015). PostgreSQL 11 compatible.
ALTER TABLE generation_txis ADD COLUMN size_before bigint;

-- the stored generations, once: the sizes of the stored transactions below each (as `mdw -v` recounts them)
UPDATE generation_txis g SET size_before = s.before
  FROM (SELECT k.height, coalesce(sum(t.size) OVER (ORDER BY k.height ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0) AS before
          FROM key_blocks k LEFT JOIN (SELECT height, sum(size) AS size FROM transactions GROUP BY height) t ON t.height = k.height) s
 WHERE s.height = g.height;

ALTER TABLE generation_txis ALTER COLUMN size_before SET NOT NULL;
