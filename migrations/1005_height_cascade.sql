-- 0.1.0 baseline: the rows of deleted heights go with their key blocks. Every row that belongs to a height carries
-- it, and a statement trigger on key_blocks per area names the area's tables; one function deletes the heights of the
-- statement's deleted key blocks from each (every table has an index led by height, so each delete reads only those
-- rows). So `DELETE FROM key_blocks WHERE height >= h` (a fork's rollback, a -H reload, a hand-made delete) leaves no
-- row of a deleted height, with no foreign key checking every insert (a lookup and a row lock each).
CREATE FUNCTION cascade_deleted_heights() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  per_height text;
BEGIN
  FOREACH per_height IN ARRAY TG_ARGV LOOP
    EXECUTE format('DELETE FROM %I WHERE height IN (SELECT height FROM old_blocks)', per_height);
  END LOOP;
  RETURN NULL;
END
$$;

-- the chain's tables
CREATE TRIGGER key_blocks_on_delete AFTER DELETE ON key_blocks
  REFERENCING OLD TABLE AS old_blocks FOR EACH STATEMENT
  EXECUTE FUNCTION cascade_deleted_heights(
    'micro_blocks',
    'transactions',
    'account_transactions',
    'contracts',
    'contract_calls',
    'channel_events',
    'name_events',
    'name_pointers',
    'oracle_events',
    'oracle_queries',
    'oracle_responses');

-- the derived areas' (transfers, fees, txis, remote calls) and the DEX's and AEX-141's events
CREATE TRIGGER derived_on_key_blocks_delete AFTER DELETE ON key_blocks
  REFERENCING OLD TABLE AS old_blocks FOR EACH STATEMENT
  EXECUTE FUNCTION cascade_deleted_heights(
    'internal_transfers',
    'generation_fees',
    'generation_txis',
    'contract_remote_calls',
    'dex_pairs',
    'dex_swaps',
    'aex141_events');

-- AEX-N contracts and AEX-9 events
CREATE TRIGGER aexn_on_key_blocks_delete AFTER DELETE ON key_blocks
  REFERENCING OLD TABLE AS old_blocks FOR EACH STATEMENT
  EXECUTE FUNCTION cascade_deleted_heights(
    'aexn_contracts',
    'aexn_call_created',
    'aex9_events',
    'aex9_transfers');

-- the statistics
CREATE TRIGGER stats_on_key_blocks_delete AFTER DELETE ON key_blocks
  REFERENCING OLD TABLE AS old_blocks FOR EACH STATEMENT
  EXECUTE FUNCTION cascade_deleted_heights(
    'stats_generations',
    'stats_series_counts',
    'stats_accounts',
    'stats_active_accounts',
    'stats_miner_rewards');
