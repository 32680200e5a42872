-- The outcome of a generalized account's own call, which ae_mdw adds to its transactions (`gas_used`, `return_type`):
-- a GAAttachTx's init call (its call_info) and a GAMetaTx's authentication call (its ga_info), as the node's
-- /transactions/{hash}/info gives them, one row per such transaction; for a GAAttachTx also the name of its
-- authentication function and its init call's decoded arguments, read from the transaction's own code. The `ga`
-- derived area asks the node for them (src/indexer/derived/ga-calls.ts).
CREATE TABLE ga_calls (
  height        integer NOT NULL,
  micro_index   integer NOT NULL,
  tx_index      integer NOT NULL,
  -- null when no node holds the transaction's info any more (garbage-collected)
  gas_used      bigint,
  return_type   text,
  -- GAAttachTx only: null for a GAMetaTx, or where the code does not tell (not FATE, a function it does not name)
  auth_fun_name text,
  args          jsonb,
  PRIMARY KEY (height, micro_index, tx_index)
);

-- the rows go with their heights, as every area's rows (1005)
CREATE TRIGGER ga_calls_on_key_blocks_delete AFTER DELETE ON key_blocks
  REFERENCING OLD TABLE AS old_blocks FOR EACH STATEMENT
  EXECUTE FUNCTION cascade_deleted_heights('ga_calls');

-- a schema with stored heights derives the calls of all of them (the populator's backfill, asking the node)
INSERT INTO derive_backfill (area, next_height, to_height)
SELECT 'ga', min(height), max(height) FROM key_blocks HAVING count(*) > 0;
