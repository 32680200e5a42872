-- Issue 88: name_state written by the writer for a sync's batch (bench/postgres-instructions.ts).
--
-- The refresh of a batch's names (1144) walks each name's events twice (its latest claim, then the registration's
-- events since) to find what the writer had at hand: a batch above every stored name event follows from the names'
-- rows before it and its own events (src/indexer/rows/name-state-rows.ts). The writer takes those rows out (one
-- statement, which sets mdw.name_state_kept to 'writer' for the transaction), COPYs the name events and then the rows
-- after (src/db/writes/name-state.ts). The insert trigger leaves such a statement's events to it: the writer's, none of
-- a contract's AENS calls (`local_idx`, 1112), whose later insert in the same transaction is refreshed as before, as
-- are every update, delete, and insert of a batch below stored events (a reload's, a fork's). The same rows.
-- PostgreSQL 11 compatible.
CREATE OR REPLACE FUNCTION name_state_after_events() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  hashes text[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    IF current_setting('mdw.name_state_kept', true) = 'writer'
       AND NOT EXISTS (SELECT 1 FROM new_events WHERE local_idx IS NOT NULL) THEN
      RETURN NULL;
    END IF;
    hashes := ARRAY(SELECT DISTINCT name_hash FROM new_events);
  ELSIF TG_OP = 'DELETE' THEN
    hashes := ARRAY(SELECT DISTINCT name_hash FROM old_events);
  ELSE
    hashes := ARRAY(SELECT name_hash FROM old_events UNION SELECT name_hash FROM new_events);
  END IF;
  IF cardinality(hashes) > 0 THEN
    PERFORM name_state_refresh(hashes);
  END IF;
  RETURN NULL;
END
$$;

-- a replaced function's settings are the new definition's: the schema's search_path set again (1006)
DO $$
BEGIN
  EXECUTE format('ALTER FUNCTION name_state_after_events() SET search_path = %I', current_schema());
END
$$;
