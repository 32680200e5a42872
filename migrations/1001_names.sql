-- 0.1.0 baseline: name_state, each name's current state, kept equal to its name_events by statement triggers in
-- the transaction of every insert, update or delete (a batch, a fork's rollback, a reload).

CREATE TABLE name_state (
  name_hash          text NOT NULL,
  -- plain name, claim tx and height of the claim that started the current registration
  name               text NOT NULL,
  tx_hash            text NOT NULL,
  created_at_height  integer NOT NULL,
  -- the latest auction end of that registration's claims and bids, else its claim height
  auction_end_height integer NOT NULL,
  -- owner, expiry, pointers and kind of the latest event
  owner              text NOT NULL,
  expires_at         integer,
  pointers           jsonb NOT NULL,
  kind               text NOT NULL,
  PRIMARY KEY (name_hash)
);
CREATE INDEX name_state_active ON name_state (expires_at, auction_end_height) WHERE (kind <> 'revoke'::text);
CREATE INDEX name_state_auction_end ON name_state (auction_end_height);
CREATE INDEX name_state_created ON name_state (created_at_height DESC, name);
CREATE INDEX name_state_expires ON name_state (expires_at DESC NULLS LAST, name);
CREATE INDEX name_state_name ON name_state (name);
CREATE INDEX name_state_owner ON name_state (owner);

CREATE FUNCTION name_state_refresh(hashes text[]) RETURNS void LANGUAGE sql AS $$
  DELETE FROM name_state WHERE name_hash = ANY(hashes);
  INSERT INTO name_state (name_hash, name, tx_hash, created_at_height, auction_end_height, owner, expires_at, pointers, kind)
  SELECT h.name_hash, c.name, c.tx_hash, c.height,
         coalesce((SELECT max(e.auction_end) FROM name_events e
                    WHERE e.name_hash = h.name_hash AND e.height >= c.height AND e.kind IN ('claim', 'bid')),
                  c.height),
         l.owner, l.expires_at, l.pointers, l.kind
    FROM (SELECT DISTINCT unnest(hashes) AS name_hash) h
    CROSS JOIN LATERAL (
      SELECT kind, owner, expires_at, pointers FROM name_events e
       WHERE e.name_hash = h.name_hash
       ORDER BY height DESC, micro_index DESC, tx_index DESC LIMIT 1) l
    CROSS JOIN LATERAL (
      SELECT name, tx_hash, height FROM name_events e
       WHERE e.name_hash = h.name_hash AND kind = 'claim' AND name IS NOT NULL
       ORDER BY height DESC, micro_index DESC, tx_index DESC LIMIT 1) c;
$$;

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
  REFERENCING NEW TABLE AS new_events FOR EACH STATEMENT
  EXECUTE FUNCTION name_state_after_events();
CREATE TRIGGER name_state_on_update AFTER UPDATE ON name_events
  REFERENCING OLD TABLE AS old_events NEW TABLE AS new_events FOR EACH STATEMENT
  EXECUTE FUNCTION name_state_after_events();
CREATE TRIGGER name_state_on_delete AFTER DELETE ON name_events
  REFERENCING OLD TABLE AS old_events FOR EACH STATEMENT
  EXECUTE FUNCTION name_state_after_events();
