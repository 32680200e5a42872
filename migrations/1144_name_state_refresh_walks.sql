-- Issue 88: name_state's refresh (1001) for the names a statement wrote events of, cheaper per name. It read each
-- name's events three times, the latest claim and the auction's bids by a bitmap scan of all the name's events each
-- (a bitmap per name, then a sort or an aggregate), and, a SQL function, was planned again at every batch: about
-- 200 000 PostgreSQL instructions a name, 5 % of a catch-up's (bench/postgres-instructions.ts). Here the latest claim
-- is one backward walk of the primary key, and the current registration's events (from that claim's height, where
-- the latest event is too) a second, which gives the latest event and the registration's latest auction end at once;
-- plpgsql keeps the plans for the session. The rows are the same: a name without a stored claim has none, the
-- auction end falls back to the claim's height. Bitmap scans are off for it: on a name's few events the planner's
-- guess of many (a table without statistics during a catch-up) chose them. PostgreSQL 11 compatible.
CREATE OR REPLACE FUNCTION name_state_refresh(hashes text[]) RETURNS void LANGUAGE plpgsql SET enable_bitmapscan = off
AS $$
BEGIN
  DELETE FROM name_state WHERE name_hash = ANY (hashes);
  INSERT INTO name_state (name_hash, name, tx_hash, created_at_height, auction_end_height, owner, expires_at, pointers, kind)
  SELECT h.name_hash, c.name, c.tx_hash, c.height, coalesce(r.auction_end, c.height), r.owner, r.expires_at, r.pointers,
         r.kind
    FROM (SELECT DISTINCT unnest(hashes) AS name_hash) h
    CROSS JOIN LATERAL (
      SELECT e.name, e.tx_hash, e.height FROM name_events e
       WHERE e.name_hash = h.name_hash AND e.kind = 'claim' AND e.name IS NOT NULL
       ORDER BY e.height DESC, e.micro_index DESC, e.tx_index DESC LIMIT 1) c
    CROSS JOIN LATERAL (
      SELECT e.kind, e.owner, e.expires_at, e.pointers,
             max(e.auction_end) FILTER (WHERE e.kind IN ('claim', 'bid')) OVER () AS auction_end
        FROM name_events e
       WHERE e.name_hash = h.name_hash AND e.height >= c.height
       ORDER BY e.height DESC, e.micro_index DESC, e.tx_index DESC LIMIT 1) r;
END
$$;

-- a replaced function's settings are the new definition's: the schema's search_path set again (1006)
DO $$
BEGIN
  EXECUTE format('ALTER FUNCTION name_state_refresh(text[]) SET search_path = %I', current_schema());
END
$$;
