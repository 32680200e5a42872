-- The tables added since 0003 (internal transfers and generation fees, generation txis, remote contract calls,
-- DEX pairs and swaps, AEX-141 events) lose their foreign keys to key_blocks, as 0003 did for the chain's own
-- tables: a foreign key checks every inserted row against key_blocks (a lookup and a row lock each), and the
-- populator writes a height's key block and its rows in one transaction, so the check guards nothing it needs.
-- The delete side keeps its meaning: after `DELETE FROM key_blocks WHERE …` no row of a deleted height is left
-- (fork rollback, -H reload, hand-made deletes). The cascade fired these tables' own statement triggers (the
-- AEX-141 owners, the remote calls' none) and so does the statement below.
-- Every table has an index led by height, so each delete reads only the rows of the deleted heights.
-- PostgreSQL 11 compatible.

ALTER TABLE internal_transfers    DROP CONSTRAINT internal_transfers_height_fkey;
ALTER TABLE generation_fees       DROP CONSTRAINT generation_fees_height_fkey;
ALTER TABLE generation_txis       DROP CONSTRAINT generation_txis_height_fkey;
ALTER TABLE contract_remote_calls DROP CONSTRAINT contract_remote_calls_height_fkey;
ALTER TABLE dex_pairs             DROP CONSTRAINT dex_pairs_height_fkey;
ALTER TABLE dex_swaps             DROP CONSTRAINT dex_swaps_height_fkey;
ALTER TABLE aex141_events         DROP CONSTRAINT aex141_events_height_fkey;

CREATE FUNCTION derived_after_key_blocks_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM internal_transfers    WHERE height IN (SELECT height FROM old_blocks);
  DELETE FROM generation_fees       WHERE height IN (SELECT height FROM old_blocks);
  DELETE FROM generation_txis       WHERE height IN (SELECT height FROM old_blocks);
  DELETE FROM contract_remote_calls WHERE height IN (SELECT height FROM old_blocks);
  DELETE FROM dex_pairs             WHERE height IN (SELECT height FROM old_blocks);
  DELETE FROM dex_swaps             WHERE height IN (SELECT height FROM old_blocks);
  DELETE FROM aex141_events         WHERE height IN (SELECT height FROM old_blocks);
  RETURN NULL;
END
$$;

CREATE TRIGGER derived_on_key_blocks_delete AFTER DELETE ON key_blocks
  REFERENCING OLD TABLE AS old_blocks FOR EACH STATEMENT EXECUTE PROCEDURE derived_after_key_blocks_delete();

-- As in 0002: the function works on this schema's tables whatever the caller's search_path.
DO $$
BEGIN
  EXECUTE format('ALTER FUNCTION derived_after_key_blocks_delete() SET search_path = %I', current_schema());
END
$$;
