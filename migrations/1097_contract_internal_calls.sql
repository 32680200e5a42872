-- Internal contract calls (ae_mdw's /v3/contracts/calls): the chain operations a contract performed while a
-- ContractCallTx or ContractCreateTx ran (`Chain.spend`, `Call.amount`, `AENS.*`, `Oracle.*`), as the node's
-- dry-run with `tx_events` reports them when the micro block's transactions run again on top of the block before it.
-- The `int_calls` derived area asks the node for them (src/indexer/derived/internal-calls.ts), one row per event of
-- the call at (height, micro_index, tx_index), `local_idx` its place among that call's events.
CREATE TABLE contract_internal_calls (
  height      integer NOT NULL,
  micro_index integer NOT NULL,
  tx_index    integer NOT NULL,
  local_idx   integer NOT NULL,
  -- the event's key as the node names it: Chain.spend, Call.amount, AENS.claim, Oracle.query…
  function    text NOT NULL,
  -- the transaction the operation amounts to, as the node serialises it, with ae_mdw's `type` and `version`
  internal_tx jsonb NOT NULL,
  PRIMARY KEY (height, micro_index, tx_index, local_idx)
);
-- ?function= walks its own rows in chain order, as the position walk does without it
CREATE INDEX contract_internal_calls_function ON contract_internal_calls (function, height, micro_index, tx_index, local_idx);

-- The calls whose internal calls no dry-run can tell, so their absence is never silent: a call inside a GAMetaTx
-- or PayingForTx and every call after such a transaction in its micro block (the node dry-runs neither), a block
-- whose state every node had garbage-collected (410), a call whose block's transactions up to it pass the dry-run's
-- gas cap (docs/api-v3.md, "Contract calls").
CREATE TABLE contract_internal_call_gaps (
  height      integer NOT NULL,
  micro_index integer NOT NULL,
  tx_index    integer NOT NULL,
  reason      text NOT NULL,
  PRIMARY KEY (height, micro_index, tx_index)
);

-- the rows go with their heights, as every area's rows (1005)
CREATE TRIGGER contract_internal_calls_on_key_blocks_delete AFTER DELETE ON key_blocks
  REFERENCING OLD TABLE AS old_blocks FOR EACH STATEMENT
  EXECUTE FUNCTION cascade_deleted_heights('contract_internal_calls', 'contract_internal_call_gaps');

-- a schema with stored contract calls derives them for all its heights (the populator's backfill, asking the node)
INSERT INTO derive_backfill (area, next_height, to_height)
SELECT 'int_calls', min(height), max(height) FROM key_blocks
HAVING count(*) > 0 AND EXISTS (SELECT 1 FROM contract_calls);
