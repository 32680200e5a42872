-- The names currently pointing at an id, in name order (/middleware/names/reverse/{id}, issue 57): the route read the
-- id's pointer rows of every update and their names' states, then sorted all of them by name, so the first page of an
-- id that thousands of names point at cost all of them. Here each name whose current pointers hold an id has a row
-- (id, name) with what tells whether it is active at a height, and a page is a walk of the id's rows in name order in
-- the index alone (its offset, and the id's names that expired since, skipped by the expiry beside them), then the
-- states of the page's names. PostgreSQL 11 compatible.
CREATE TABLE name_pointees (
  id          text NOT NULL,
  name        text NOT NULL,
  name_hash   text NOT NULL,
  -- name_state's expiry of the name, and its auction's end when its registration had one (else null): the walk
  -- keeps the names active at the top, as name_state's columns tell (queries/names.ts activeAt)
  expires_at  integer,
  auction_end integer,
  PRIMARY KEY (id, name) INCLUDE (name_hash, expires_at, auction_end)
);

-- a name_state row's pointees: the ids of its pointers, each key's last (an update repeating a key keeps its last id,
-- as the node and name_pointers do), once per id; none for a revoked name
CREATE FUNCTION name_pointees_of(s name_state)
RETURNS TABLE (id text, name text, name_hash text, expires_at integer, auction_end integer)
LANGUAGE sql IMMUTABLE AS $$
  SELECT DISTINCT k.id, s.name, s.name_hash, s.expires_at,
         CASE WHEN s.auction_end_height <> s.created_at_height THEN s.auction_end_height END
    FROM (SELECT DISTINCT ON (p.value->>'key') p.value->>'id' AS id
            FROM jsonb_array_elements(s.pointers) WITH ORDINALITY p(value, i)
           WHERE jsonb_typeof(p.value->'id') = 'string'
           ORDER BY p.value->>'key', p.i DESC) k
   WHERE s.kind <> 'revoke'
$$;

-- name_state's own triggers delete and insert a name's row in the statement that writes its events (a batch, a
-- fork's rollback, a -H reload), so these keep the pointees exact in every snapshot
CREATE FUNCTION name_pointees_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('DELETE', 'UPDATE') THEN
    DELETE FROM name_pointees k USING old_rows r, name_pointees_of(r) o WHERE k.id = o.id AND k.name = o.name;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO name_pointees (id, name, name_hash, expires_at, auction_end)
    SELECT o.* FROM new_rows r, name_pointees_of(r) o;
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER name_pointees_on_insert AFTER INSERT ON name_state
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION name_pointees_apply();
CREATE TRIGGER name_pointees_on_delete AFTER DELETE ON name_state
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION name_pointees_apply();
CREATE TRIGGER name_pointees_on_update AFTER UPDATE ON name_state
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION name_pointees_apply();

-- the trigger function works on this schema's tables whatever the caller's search_path (as 1006 sets the others)
DO $$
BEGIN
  EXECUTE format('ALTER FUNCTION name_pointees_apply() SET search_path = %I', current_schema());
END
$$;

-- the names stored before this migration
INSERT INTO name_pointees (id, name, name_hash, expires_at, auction_end) SELECT o.* FROM name_state s, name_pointees_of(s) o;
