-- Two values kept beside their rows (issue 57). First the stored key blocks' count (/middleware/status's
-- `contiguous`): every height from 0 to the top is stored when the count is the top + 1. The route counted
-- key_blocks' index whole once a second per server (1.14 M entries on mainnet). Statement triggers keep the count in
-- the statement that writes or deletes key blocks (a batch's COPY, the height cascade's delete of a fork or a -H
-- reload), so it is exact in every snapshot and a rollback takes it back with the rows; `mdw -v` compares it with a
-- recount (src/db/queries/derive-check.ts). One row, always there. PostgreSQL 11 compatible: one trigger per event,
-- as transition tables allow.
CREATE TABLE key_block_count (
  one boolean PRIMARY KEY DEFAULT true CHECK (one),
  n   bigint NOT NULL
);

CREATE FUNCTION key_block_count_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    UPDATE key_block_count SET n = n + (SELECT count(*) FROM new_rows);
  ELSE
    UPDATE key_block_count SET n = n - (SELECT count(*) FROM old_rows);
  END IF;
  RETURN NULL;
END
$$;

-- an update of a key block (none writes one) keeps the count
CREATE TRIGGER key_block_count_on_insert AFTER INSERT ON key_blocks
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION key_block_count_apply();
CREATE TRIGGER key_block_count_on_delete AFTER DELETE ON key_blocks
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION key_block_count_apply();

-- the key blocks stored before this migration, counted once
INSERT INTO key_block_count (n) SELECT count(*) FROM key_blocks;

-- Each registered oracle's expiry after its latest event, in expiry order (/v3/oracles, issue 57): the list computed
-- every oracle's state from its events and sorted them all for a page (65 oracles and 1 447 events at 0.5 % of
-- mainnet, ten times more at 5 %); it walks this index now, a page's oracles and no other. Statement triggers on
-- oracle_events write each oracle a statement adds or deletes events of again from its latest event (a probe of the
-- primary key), in that statement, so a fork's rollback or a -H reload puts back the expiry its remaining events
-- give. Only an oracle with a registration stored has a row (as the list shows only those: a sparse database may
-- hold an extension without it), so a page of rows is a page of the list. `mdw -v` compares it with the events'
-- recount (src/db/queries/derive-check.ts).
CREATE TABLE oracle_expiries (
  oracle_id  text PRIMARY KEY,
  expires_at integer NOT NULL
);
CREATE INDEX oracle_expiries_walk ON oracle_expiries (expires_at, oracle_id);

CREATE FUNCTION oracle_expiries_apply() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  touched text[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    touched := ARRAY(SELECT DISTINCT oracle_id FROM new_rows);
  ELSE
    touched := ARRAY(SELECT DISTINCT oracle_id FROM old_rows);
  END IF;
  DELETE FROM oracle_expiries WHERE oracle_id = ANY(touched);
  INSERT INTO oracle_expiries (oracle_id, expires_at)
  SELECT o.id, l.expires_at
    FROM unnest(touched) o(id)
    CROSS JOIN LATERAL (SELECT e.expires_at FROM oracle_events e WHERE e.oracle_id = o.id
                         ORDER BY e.height DESC, e.micro_index DESC, e.tx_index DESC LIMIT 1) l
   WHERE EXISTS (SELECT 1 FROM oracle_events r WHERE r.oracle_id = o.id AND r.kind = 'register');
  RETURN NULL;
END
$$;

-- An oracle's registrations in position order: its latest (the list's and the oracle's `register`) is one probe, where
-- the primary key's walk read every extension after it (31 for an oracle at 0.5 % of mainnet, ten times more at 5 %).
CREATE INDEX oracle_events_registrations ON oracle_events (oracle_id, height, micro_index, tx_index)
  WHERE kind = 'register';

-- oracle_events' rows are written and deleted, never updated
CREATE TRIGGER oracle_expiries_on_insert AFTER INSERT ON oracle_events
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION oracle_expiries_apply();
CREATE TRIGGER oracle_expiries_on_delete AFTER DELETE ON oracle_events
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION oracle_expiries_apply();

-- the oracles stored before this migration, once
INSERT INTO oracle_expiries (oracle_id, expires_at)
SELECT DISTINCT ON (oracle_id) oracle_id, expires_at FROM oracle_events
 WHERE oracle_id IN (SELECT oracle_id FROM oracle_events WHERE kind = 'register')
 ORDER BY oracle_id, height DESC, micro_index DESC, tx_index DESC;

-- the trigger functions work on this schema's tables whatever the caller's search_path (as 1006 sets the others)
DO $$
BEGIN
  EXECUTE format('ALTER FUNCTION key_block_count_apply() SET search_path = %I', current_schema());
  EXECUTE format('ALTER FUNCTION oracle_expiries_apply() SET search_path = %I', current_schema());
END
$$;
