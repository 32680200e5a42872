-- name_state_refresh (0002, 0004) reads the events of all the names a statement touched in one index scan of
-- name_events' primary key and derives their states together: two sorts a batch instead of one per name (0004's
-- lookups did three index descents and a sort for every name: the function was most of a batch's COPY of
-- name_events). The rows it writes are the same; nothing stored changes, so existing databases keep theirs.
-- `name_hash = ANY(hashes)` keeps the scan on the primary key, not 0002's join of the whole table.
-- PostgreSQL 11 compatible.

CREATE OR REPLACE FUNCTION name_state_refresh(hashes text[]) RETURNS void LANGUAGE sql AS $$
  DELETE FROM name_state WHERE name_hash = ANY(hashes);
  INSERT INTO name_state (name_hash, name, tx_hash, created_at_height, auction_end_height, owner, expires_at, pointers, kind)
  -- compared bytewise: the names' hashes only need grouping, not the database's collation order
  WITH ev AS (
    SELECT name_hash COLLATE "C" AS name_hash, height, micro_index, tx_index, kind, name, tx_hash, owner,
           expires_at, pointers, auction_end
      FROM name_events WHERE name_hash = ANY(hashes)),
  latest AS (
    SELECT DISTINCT ON (name_hash) name_hash, kind, owner, expires_at, pointers
      FROM ev ORDER BY name_hash, height DESC, micro_index DESC, tx_index DESC),
  -- the claim that started each name's current registration
  claims AS (
    SELECT DISTINCT ON (name_hash) name_hash, name, tx_hash, height
      FROM ev WHERE kind = 'claim' AND name IS NOT NULL
     ORDER BY name_hash, height DESC, micro_index DESC, tx_index DESC),
  -- the latest auction end of that registration's claims and bids
  auctions AS (
    SELECT e.name_hash, max(e.auction_end) AS auction_end
      FROM ev e JOIN claims c ON c.name_hash = e.name_hash AND e.height >= c.height
     WHERE e.kind IN ('claim', 'bid') GROUP BY 1)
  SELECT c.name_hash, c.name, c.tx_hash, c.height, coalesce(a.auction_end, c.height),
         l.owner, l.expires_at, l.pointers, l.kind
    FROM claims c JOIN latest l ON l.name_hash = c.name_hash LEFT JOIN auctions a ON a.name_hash = c.name_hash;
$$;

DO $$
BEGIN
  EXECUTE format('ALTER FUNCTION name_state_refresh(text[]) SET search_path = %I', current_schema());
END
$$;
