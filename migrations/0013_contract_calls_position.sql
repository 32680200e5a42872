-- /v3/contracts/calls walks contract calls in chain order, all of them or one caller's: the
-- position index replaces the height index (it serves the cascade and height ranges as well), and
-- callers get their own. (Calls of one contract have contract_calls_contract.)
-- PostgreSQL 11 compatible.
DROP INDEX contract_calls_height;
CREATE INDEX contract_calls_position ON contract_calls (height, micro_index, tx_index);
CREATE INDEX contract_calls_caller ON contract_calls (caller_id, height, micro_index, tx_index);
