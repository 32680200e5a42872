-- Heights are deleted through key_blocks as before, but the rows that belong to them go in one
-- statement per table instead of through foreign keys. A foreign key checks every inserted row
-- against key_blocks (a lookup and a row lock each): a quarter of PostgreSQL's work while loading
-- the chain. The populator writes a height's key block and its rows in one transaction, so the
-- check guards nothing it needs; the delete side keeps its exact meaning: after
-- `DELETE FROM key_blocks WHERE …` no row of a deleted height is left in any table (fork rollback,
-- -H reload, and hand-made deletes alike). name_events' own statement trigger keeps name_state
-- exact, as it did under the cascade.
-- PostgreSQL 11 compatible (statement triggers with transition tables exist since 10).

ALTER TABLE micro_blocks         DROP CONSTRAINT micro_blocks_height_fkey;
ALTER TABLE transactions         DROP CONSTRAINT transactions_height_fkey;
ALTER TABLE account_transactions DROP CONSTRAINT account_transactions_height_fkey;
ALTER TABLE contracts            DROP CONSTRAINT contracts_height_fkey;
ALTER TABLE contract_calls       DROP CONSTRAINT contract_calls_height_fkey;
ALTER TABLE channel_events       DROP CONSTRAINT channel_events_height_fkey;
ALTER TABLE name_events          DROP CONSTRAINT name_events_height_fkey;
ALTER TABLE name_pointers        DROP CONSTRAINT name_pointers_height_fkey;
ALTER TABLE oracle_events        DROP CONSTRAINT oracle_events_height_fkey;
ALTER TABLE oracle_queries       DROP CONSTRAINT oracle_queries_height_fkey;
ALTER TABLE oracle_responses     DROP CONSTRAINT oracle_responses_height_fkey;

-- Every table has an index led by height (micro_blocks and transactions through their
-- UNIQUE (height, …)), so each delete reads only the rows of the deleted heights.
CREATE FUNCTION key_blocks_after_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM micro_blocks         WHERE height IN (SELECT height FROM old_blocks);
  DELETE FROM transactions         WHERE height IN (SELECT height FROM old_blocks);
  DELETE FROM account_transactions WHERE height IN (SELECT height FROM old_blocks);
  DELETE FROM contracts            WHERE height IN (SELECT height FROM old_blocks);
  DELETE FROM contract_calls       WHERE height IN (SELECT height FROM old_blocks);
  DELETE FROM channel_events       WHERE height IN (SELECT height FROM old_blocks);
  DELETE FROM name_events          WHERE height IN (SELECT height FROM old_blocks);
  DELETE FROM name_pointers        WHERE height IN (SELECT height FROM old_blocks);
  DELETE FROM oracle_events        WHERE height IN (SELECT height FROM old_blocks);
  DELETE FROM oracle_queries       WHERE height IN (SELECT height FROM old_blocks);
  DELETE FROM oracle_responses     WHERE height IN (SELECT height FROM old_blocks);
  RETURN NULL;
END
$$;

CREATE TRIGGER key_blocks_on_delete AFTER DELETE ON key_blocks
  REFERENCING OLD TABLE AS old_blocks FOR EACH STATEMENT EXECUTE PROCEDURE key_blocks_after_delete();

-- As in 0002: the function works on this schema's tables whatever the caller's search_path.
DO $$
BEGIN
  EXECUTE format('ALTER FUNCTION key_blocks_after_delete() SET search_path = %I', current_schema());
END
$$;
