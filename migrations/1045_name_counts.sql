-- The active names' count (/v3/names/count, of an owner or of all; issue 57) without counting name_state's rows: on a
-- chain of mainnet's size count(*) over them, or over one owner's, grows with the names ever claimed. A name counts at
-- the top T while lo <= T <= hi: hi its expiry, lo the generation after its auction's end (a name claimed without an
-- auction has none: active from its claim). So the count at T is the names with hi >= T less those with lo > T, each a
-- sum over heights at or above T only: the rows of the names' remaining lifetimes (at most the longest TTL ahead), never
-- the chain's past. Kept per height for each owner and for all ('') by statement triggers on name_state, whose own
-- triggers rewrite a name's row in the statement that writes its events (a batch, a fork's rollback, a -H reload), so
-- they are exact in every snapshot; `mdw -v` compares them with a recount (src/db/queries/derive-check.ts). A row whose
-- counts fall to zero is deleted. PostgreSQL 11 compatible.
CREATE TABLE name_count_edges (
  -- the owner, '' for every owner's names
  owner      text NOT NULL,
  height     integer NOT NULL,
  -- names whose last active height this is (their expiry)
  expiring   bigint NOT NULL,
  -- names whose first active height this is (the generation after their auction's end)
  activating bigint NOT NULL,
  PRIMARY KEY (owner, height)
);

-- a name_state row's edges, as the count reads it (queries/names.ts IN_AUCTION): none for a revoked name, one without
-- an expiry, or one whose auction ends after its expiry; each for its owner and for all
CREATE FUNCTION name_count_edges_of(s name_state) RETURNS TABLE (owner text, height integer, expiring bigint, activating bigint)
LANGUAGE sql IMMUTABLE AS $$
  SELECT o.owner, e.height, e.expiring, e.activating
    FROM (SELECT CASE WHEN s.auction_end_height > s.created_at_height AND s.kind IN ('claim', 'bid')
                      THEN s.auction_end_height + 1 END AS lo) a
   CROSS JOIN LATERAL (VALUES (s.expires_at, 1::bigint, 0::bigint), (a.lo, 0::bigint, 1::bigint)) e(height, expiring, activating)
   CROSS JOIN (VALUES (s.owner), ('')) o(owner)
   WHERE s.kind <> 'revoke' AND s.expires_at IS NOT NULL AND coalesce(a.lo, s.expires_at) <= s.expires_at
     AND e.height IS NOT NULL
$$;

CREATE FUNCTION name_count_edges_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('DELETE', 'UPDATE') THEN
    INSERT INTO name_count_edges AS k (owner, height, expiring, activating)
    SELECT e.owner, e.height, -sum(e.expiring), -sum(e.activating) FROM old_rows r, name_count_edges_of(r) e GROUP BY 1, 2
    ON CONFLICT (owner, height) DO UPDATE SET expiring = k.expiring + excluded.expiring,
                                              activating = k.activating + excluded.activating;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO name_count_edges AS k (owner, height, expiring, activating)
    SELECT e.owner, e.height, sum(e.expiring), sum(e.activating) FROM new_rows r, name_count_edges_of(r) e GROUP BY 1, 2
    ON CONFLICT (owner, height) DO UPDATE SET expiring = k.expiring + excluded.expiring,
                                              activating = k.activating + excluded.activating;
  END IF;
  IF TG_OP IN ('DELETE', 'UPDATE') THEN
    DELETE FROM name_count_edges k USING (SELECT DISTINCT e.owner, e.height FROM old_rows r, name_count_edges_of(r) e) o
     WHERE k.owner = o.owner AND k.height = o.height AND k.expiring = 0 AND k.activating = 0;
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER name_count_edges_on_insert AFTER INSERT ON name_state
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION name_count_edges_apply();
CREATE TRIGGER name_count_edges_on_delete AFTER DELETE ON name_state
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION name_count_edges_apply();
CREATE TRIGGER name_count_edges_on_update AFTER UPDATE ON name_state
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION name_count_edges_apply();

-- the trigger function works on this schema's tables whatever the caller's search_path (as 1006 sets the others)
DO $$
BEGIN
  EXECUTE format('ALTER FUNCTION name_count_edges_apply() SET search_path = %I', current_schema());
END
$$;

-- the names stored before this migration, counted once
INSERT INTO name_count_edges (owner, height, expiring, activating)
SELECT e.owner, e.height, sum(e.expiring), sum(e.activating) FROM name_state s, name_count_edges_of(s) e GROUP BY 1, 2;
