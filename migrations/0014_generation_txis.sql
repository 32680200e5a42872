-- ae_mdw's transaction index (txi), a global counter of transactions in chain order, defined from
-- our positions: the txi of a transaction is the number of transactions before it. Kept per
-- generation (the txi of its first transaction) so that a txi and a position convert into each
-- other with one index probe and a walk over one generation's micro blocks. The populator writes
-- a row for each key block it adds; rows go with their heights on a fork or a reload.
-- PostgreSQL 11 compatible.
CREATE TABLE generation_txis (
  height    integer PRIMARY KEY REFERENCES key_blocks (height) ON DELETE CASCADE,
  first_txi bigint  NOT NULL
);
-- a txi's generation: the highest height whose first txi is at most it
CREATE INDEX generation_txis_first_txi ON generation_txis (first_txi, height);

-- the generations stored already (a sparse database counts the transactions it holds)
INSERT INTO generation_txis (height, first_txi)
SELECT k.height, coalesce(sum(coalesce(m.n, 0)) OVER (ORDER BY k.height ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0)
  FROM key_blocks k
  LEFT JOIN (SELECT height, sum(tx_count) AS n FROM micro_blocks GROUP BY height) m ON m.height = k.height;
