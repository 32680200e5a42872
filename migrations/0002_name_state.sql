-- Current state of every name, one row per name hash, so the names API reads a table instead of
-- computing DISTINCT ON over all of name_events per request.
--
-- name_state is a pure function of name_events: name_state_refresh(hashes) recomputes the rows of
-- the given hashes, and statement-level triggers on name_events call it, in the same transaction,
-- for the hashes of every inserted, updated or deleted event. So every path that writes or deletes
-- heights (a batch's COPY, fork rollback, -H replace, shorter chain: deletes cascade from
-- key_blocks into name_events) keeps it exact, and so does any other writer of name_events.
-- PostgreSQL 11 compatible.

CREATE TABLE name_state (
  name_hash          text    PRIMARY KEY,
  -- plain name, claim tx and height of the claim that started the current registration
  name               text    NOT NULL,
  tx_hash            text    NOT NULL,
  created_at_height  integer NOT NULL,
  -- the latest auction end of that registration's claims and bids, else its claim height
  auction_end_height integer NOT NULL,
  -- owner, expiry, pointers and kind of the latest event
  owner              text    NOT NULL,
  expires_at         integer,
  pointers           jsonb   NOT NULL,
  kind               text    NOT NULL
);
CREATE INDEX name_state_owner ON name_state (owner);
CREATE INDEX name_state_name ON name_state (name);
-- the listing orders (newest claim first, latest expiry first) and their reverses
CREATE INDEX name_state_created ON name_state (created_at_height DESC, name);
CREATE INDEX name_state_expires ON name_state (expires_at DESC NULLS LAST, name);
-- active at a height: auction over, not expired, not revoked
CREATE INDEX name_state_active ON name_state (expires_at, auction_end_height) WHERE kind <> 'revoke';

-- The one definition of a name's state: the latest event (owner, expiry, pointers, kind) and the
-- latest claim carrying the plain name (name, created height, claim tx), with the end of the
-- auction opened or extended by that claim and the bids after it.
CREATE FUNCTION name_state_refresh(hashes text[]) RETURNS void LANGUAGE sql AS $$
  DELETE FROM name_state WHERE name_hash IN (SELECT unnest(hashes));
  INSERT INTO name_state (name_hash, name, tx_hash, created_at_height, auction_end_height, owner, expires_at, pointers, kind)
  WITH latest AS (
    SELECT DISTINCT ON (name_hash) name_hash, kind, owner, expires_at, pointers
      FROM name_events WHERE name_hash IN (SELECT unnest(hashes))
     ORDER BY name_hash, height DESC, micro_index DESC, tx_index DESC),
  claims AS (
    SELECT DISTINCT ON (name_hash) name_hash, name, tx_hash, height
      FROM name_events WHERE kind = 'claim' AND name IS NOT NULL AND name_hash IN (SELECT unnest(hashes))
     ORDER BY name_hash, height DESC, micro_index DESC, tx_index DESC)
  SELECT c.name_hash, c.name, c.tx_hash, c.height,
         coalesce((SELECT max(e.auction_end) FROM name_events e
                    WHERE e.name_hash = c.name_hash AND e.height >= c.height AND e.kind IN ('claim', 'bid')),
                  c.height),
         l.owner, l.expires_at, l.pointers, l.kind
    FROM claims c JOIN latest l USING (name_hash);
$$;

-- One trigger function for the three statement triggers: the hashes of the events the statement
-- touched (its transition tables), recomputed after it.
CREATE FUNCTION name_state_after_events() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  hashes text[];
BEGIN
  IF TG_OP = 'INSERT' THEN
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

CREATE TRIGGER name_state_on_insert AFTER INSERT ON name_events
  REFERENCING NEW TABLE AS new_events FOR EACH STATEMENT EXECUTE PROCEDURE name_state_after_events();
CREATE TRIGGER name_state_on_delete AFTER DELETE ON name_events
  REFERENCING OLD TABLE AS old_events FOR EACH STATEMENT EXECUTE PROCEDURE name_state_after_events();
CREATE TRIGGER name_state_on_update AFTER UPDATE ON name_events
  REFERENCING OLD TABLE AS old_events NEW TABLE AS new_events FOR EACH STATEMENT EXECUTE PROCEDURE name_state_after_events();

-- Both functions work on this schema's tables whatever the caller's search_path (a session of another
-- schema writing here by qualified name must not refresh its own name_state).
DO $$
BEGIN
  EXECUTE format('ALTER FUNCTION name_state_refresh(text[]) SET search_path = %I', current_schema());
  EXECUTE format('ALTER FUNCTION name_state_after_events() SET search_path = %I', current_schema());
END
$$;

-- Backfill an existing database.
SELECT name_state_refresh(ARRAY(SELECT DISTINCT name_hash FROM name_events));
