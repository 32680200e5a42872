-- As 0033 for transactions: micro blocks and contract calls are looked up by their hash only by equality (a micro
-- block's page, a transaction's call), so those hashes get hash indexes (16-byte entries: the hash code and the
-- row's address) instead of their primary keys' B-trees (64-byte entries of random text, pages two-thirds full).
-- A hash index cannot be unique: a micro block's position stays unique (UNIQUE (height, micro_index)), and a
-- contract call is written once with its transaction, whose position is unique. PostgreSQL 11 compatible.
ALTER TABLE micro_blocks DROP CONSTRAINT micro_blocks_pkey;
CREATE INDEX micro_blocks_hash ON micro_blocks USING hash (hash);
ALTER TABLE contract_calls DROP CONSTRAINT contract_calls_pkey;
CREATE INDEX contract_calls_tx_hash ON contract_calls USING hash (tx_hash);
