-- Issue 88: the triggers of the kept tables a catch-up from genesis leaves empty (1140, src/db/writes/deferred-builds.ts)
-- are dropped during the catch-up, not disabled, and created again at the top from their definitions, kept here with
-- the table's row by name (pg_get_triggerdef, unqualified: a snapshot's rows are restored into a schema of another
-- name). A disabled statement trigger with transition tables (REFERENCING NEW/OLD TABLE) still has PostgreSQL copy
-- every row a statement writes into its transition table (the table's trigger flags count it; only its run is
-- skipped): 100 k rows through a disabled trigger wrote 21.8 MB of temporary files, through none nothing, so every row
-- a catch-up wrote to name_state, aex9_events, spend_heights and account_transactions was copied for triggers that
-- never ran.
-- A schema an older version is catching up holds them disabled: their definitions are kept and they are dropped here,
-- as a catch-up started now leaves them.
-- PostgreSQL 11 compatible.
ALTER TABLE deferred_builds ADD COLUMN triggers jsonb NOT NULL DEFAULT '{}';

DO $$
DECLARE
  t record;
BEGIN
  -- a kept table's triggers are named after it (src/db/queries/deferred-builds.ts: name_pointees_on_insert, …)
  FOR t IN
    SELECT d.name, g.tgname, c.relname, pg_get_triggerdef(g.oid, true) AS definition
      FROM deferred_builds d
      JOIN pg_trigger g ON left(g.tgname, length(d.name) + 4) = d.name || '_on_' AND g.tgenabled = 'D'
      JOIN pg_class c ON c.oid = g.tgrelid AND c.relnamespace = current_schema()::regnamespace
     WHERE d.kind = 'table'
  LOOP
    UPDATE deferred_builds SET triggers = triggers || jsonb_build_object(t.tgname, t.definition) WHERE name = t.name;
    EXECUTE format('DROP TRIGGER %I ON %I', t.tgname, t.relname);
  END LOOP;
END
$$;
