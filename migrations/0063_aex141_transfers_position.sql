-- /v3/aex141/transfers walks every collection's transfers in chain order: an index of their positions.
-- PostgreSQL 11 compatible.
CREATE INDEX aex141_events_transfers ON aex141_events (height, micro_index, tx_index, log_idx) WHERE kind = 'transfer';
