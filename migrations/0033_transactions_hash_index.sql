-- transactions are found by hash only by equality (a transaction's page, and joins from the rows that name a
-- transaction by its hash), so the hash's index is a hash index: an entry is the 4-byte hash code and the row's
-- address, 16 bytes against the B-tree's 64 (the 53-character text and its header), and a lookup reads one bucket
-- page instead of descending a tree. On the devnode chain the B-tree took 106 bytes per transaction (random
-- inserts leave its pages about two-thirds full). A hash index cannot be unique: the position
-- (UNIQUE (height, micro_index, tx_index)) stays the table's key, which the writer's COPY always filled (each
-- position is written once; the node does not include a transaction twice).
-- PostgreSQL 11 compatible (hash indexes are crash-safe since 10).
ALTER TABLE transactions DROP CONSTRAINT transactions_pkey;
CREATE INDEX transactions_hash ON transactions USING hash (hash);
