-- name_state_refresh as in 0002, with every lookup going through name_events' primary key
-- (name_hash, height, micro_index, tx_index) one name at a time. The `IN (SELECT unnest(hashes))`
-- form let the planner hash-join the whole of name_events for each batch of a sync: a cost
-- that grew with the chain (8 ms per batch at 37k name events, twice).
-- PostgreSQL 11 compatible.

CREATE OR REPLACE FUNCTION name_state_refresh(hashes text[]) RETURNS void LANGUAGE sql AS $$
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

DO $$
BEGIN
  EXECUTE format('ALTER FUNCTION name_state_refresh(text[]) SET search_path = %I', current_schema());
END
$$;
