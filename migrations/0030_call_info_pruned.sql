-- A contract call indexed from nodes that had all garbage-collected its call info (HTTP 410) is stored without it
-- and marked, so that answers can say so and a reload from an archive node (-H) can find what to fill in.
ALTER TABLE contract_calls ADD COLUMN call_info_pruned boolean NOT NULL DEFAULT false;
CREATE INDEX contract_calls_pruned ON contract_calls (height) WHERE call_info_pruned;
