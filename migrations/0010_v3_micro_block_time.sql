-- ae_mdw's `scope=time:A-B` on /v3/transactions: the first and last micro block of a time interval,
-- found by an index probe each instead of a scan of micro_blocks.
-- PostgreSQL 11 compatible.
CREATE INDEX micro_blocks_time_ms ON micro_blocks (time_ms, height, micro_index);
