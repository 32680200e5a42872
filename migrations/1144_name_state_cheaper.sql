-- Issue 88: name_state cheaper to keep (bench/postgres-instructions.ts).
--
-- Its refresh (1001) for the names a statement wrote events of read each name's events three times, the latest claim
-- and the auction's bids by a bitmap scan of all the name's events each (a bitmap per name, then a sort or an
-- aggregate), and, a SQL function, was planned again at every batch: about 200 000 PostgreSQL instructions a name,
-- 5 % of a catch-up's. Here the latest claim is one backward walk of the primary key, and the current registration's
-- events (from that claim's height, where the latest event is too) a second, which gives the latest event and the
-- registration's latest auction end at once; plpgsql keeps the plans for the session. The rows are the same: a name
-- without a stored claim has none, the auction end falls back to the claim's height. Bitmap scans are off for it: on
-- a name's few events the planner's guess of many (a table without statistics during a catch-up) chose them.
-- PostgreSQL 11 compatible.
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

-- name_grams (1076), the names' characters and pairs of characters that name_state_name_grams indexes, from string
-- functions where it ran a query per name (generate_series twice, cross joined): about 60 µs a name, paid for every
-- name by the index's build at the top of a catch-up and by the ANALYZE after it, and at every name written later.
-- The pairs are the name's pairs from its first character and from its second, each cut out behind a separator put
-- after every pair (U+0001, which no name holds; one that does is cut by the former query, name_grams_by_query). The
-- same elements (the index and `@>` read a set). Not STRICT, so that PostgreSQL inlines it, in the index's expression
-- as in the queries' `name_grams(s.name)` (queries/names.ts), which match it still; name_grams(NULL) is null as
-- before. The fallback is named with the schema: an inlined body resolves names by the caller's search_path.
CREATE FUNCTION name_grams_by_query(name text) RETURNS text[] LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT ARRAY(SELECT substr($1, i, n) FROM generate_series(1, length($1)) AS i, generate_series(1, 2) AS n
                WHERE i + n - 1 <= length($1))
$$;
DO $do$
BEGIN
  EXECUTE format($f$
    CREATE OR REPLACE FUNCTION name_grams(name text) RETURNS text[] LANGUAGE sql IMMUTABLE CALLED ON NULL INPUT
    PARALLEL SAFE AS $b$
      SELECT CASE WHEN strpos($1, E'\x01') > 0 THEN %I.name_grams_by_query($1)
                  ELSE string_to_array($1, NULL)
                       || (string_to_array(regexp_replace($1, '(..)', E'\\1\x01', 'g'), E'\x01'))[1:length($1) / 2]
                       || (string_to_array(regexp_replace(substr($1, 2), '(..)', E'\\1\x01', 'g'), E'\x01'))
                            [1:(length($1) - 1) / 2]
             END
    $b$$f$, current_schema());
END
$do$;
