-- A transaction's micro block hash is the hash of the micro block at its position (micro_blocks' UNIQUE (height,
-- micro_index)): the copy in every transaction row (53 bytes) goes, and the queries read it from micro_blocks
-- (src/db/queries/transactions.ts microBlockHashSql, one probe of that key per row). Then the table is rewritten in
-- position order (CLUSTER), which gives back the space of the columns dropped here and in 0086 and of 0085's updated
-- rows, and rebuilds its indexes packed.
-- PostgreSQL 11 compatible (CLUSTER of a named table runs inside a transaction).
ALTER TABLE transactions DROP COLUMN micro_block_hash;
CLUSTER transactions USING transactions_height_micro_index_tx_index_key;
