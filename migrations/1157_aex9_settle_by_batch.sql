-- Issue 88: the AEX-9 settle of a batch (db/writes/aex9-state.ts aex9Unsettled) reads the tokens the batch touches,
-- not every token ever read with every AEX-9 event up to the batch's top.
--
-- A token read from its state is read again after every touch: once a batch is settled, no token read up to its top
-- has an event after its last read up to there. So the next batch, if it goes on from that top (its heights start
-- at most one above it and reach at least to it), need only look at the tokens its own events and calls touch, and
-- at those whose reads a delete removed since (a fork's rollback, a reload, a re-derivation): their events before
-- the batch may have been settled by the read now gone. Any other batch (the first of a re-derivation below the top,
-- a reload, the first settle of a schema) looks at every token read up to its top, as before.
-- PostgreSQL 11 compatible.

-- the top of the last settled batch (one row, none before the first settle)
CREATE TABLE aex9_settled (
  one       boolean PRIMARY KEY DEFAULT true CHECK (one),
  to_height integer NOT NULL
);

-- the tokens whose reads a delete removed since the last settle
CREATE TABLE aex9_unsettled (contract_id text PRIMARY KEY);

CREATE FUNCTION aex9_reads_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO aex9_unsettled (contract_id) SELECT DISTINCT contract_id FROM old_reads ON CONFLICT DO NOTHING;
  RETURN NULL;
END
$$;

DO $$
BEGIN
  EXECUTE format('ALTER FUNCTION aex9_reads_deleted() SET search_path = %I', current_schema());
END
$$;

CREATE TRIGGER aex9_state_reads_on_delete AFTER DELETE ON aex9_state_reads
  REFERENCING OLD TABLE AS old_reads FOR EACH STATEMENT
  EXECUTE FUNCTION aex9_reads_deleted();

-- a token's latest event up to a height (its last touch), one entry each, where the primary key walks every account's
CREATE INDEX aex9_events_contract_position ON aex9_events (contract_id, height, micro_index, tx_index)
  WHERE kind <> 'state';
