-- A micro block's transactions are found through its position: micro_blocks(hash) gives
-- (height, micro_index), and transactions' UNIQUE (height, micro_index, tx_index) lists them in
-- order. The index by micro_block_hash served only that lookup and cost an insert into a random
-- place of a text B-tree per transaction (an eighth of the chain's bulk load).
-- PostgreSQL 11 compatible.

DROP INDEX transactions_micro_block;
