-- name_state_refresh as in 0004 again: 0090's set-wise form joined the names' claims with an aggregate of their
-- events, and where name_events had no planner statistics yet (a fresh database, autovacuum not yet run) the planner
-- took the claims for one row and re-ran that aggregate for every name: a batch's refresh took minutes instead of
-- milliseconds. 0004's per-name lookups through name_events' primary key cost the same whatever the statistics say.
-- Only the function changes; name_state's rows are the same either way.
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
