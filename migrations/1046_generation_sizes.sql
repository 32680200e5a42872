-- The chain's size up to any height (/middleware/size/height/{h}; issue 57) without summing every transaction below
-- it: beside each generation's first txi (generation_txis, migration 1003) the byte size of the transactions below it,
-- which the populator writes in the same statement and transaction as the first txi (src/db/writes/generation-txis.ts),
-- so the height cascade removes both with a fork's or a reload's heights and `mdw -v` recounts both. A height below the
-- top reads the next generation's row; the top reads tx_type_totals (migration 1015). PostgreSQL 11 compatible.

-- the stored generations' sizes below, once (as `mdw -v` recounts them), first: the pass over every transaction takes
-- no lock that stops a reader of generation_txis, which the ALTER below takes until the migration commits
CREATE TEMPORARY TABLE generation_sizes_below ON COMMIT DROP AS
SELECT k.height, coalesce(sum(t.size) OVER (ORDER BY k.height ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0) AS before
  FROM key_blocks k LEFT JOIN (SELECT height, sum(size) AS size FROM transactions GROUP BY height) t ON t.height = k.height;

ALTER TABLE generation_txis ADD COLUMN size_before bigint;
UPDATE generation_txis g SET size_before = s.before FROM generation_sizes_below s WHERE s.height = g.height;
ALTER TABLE generation_txis ALTER COLUMN size_before SET NOT NULL;
