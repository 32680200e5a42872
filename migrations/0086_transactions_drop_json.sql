-- Every transaction has its stored form (0085): the JSON columns go, and the table is rewritten in position order
-- (CLUSTER) so that the space of the dropped columns and of 0085's updated rows is given back, and its indexes are
-- rebuilt packed.
-- PostgreSQL 11 compatible (CLUSTER of a named table runs inside a transaction).
ALTER TABLE transactions
  DROP COLUMN tx,
  DROP COLUMN signatures,
  ALTER COLUMN signed SET NOT NULL;
CLUSTER transactions USING transactions_height_micro_index_tx_index_key;
