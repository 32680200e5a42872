-- The active names' count (/v3/names/count, issue 57) flat: migration 1045's edges are read from the top up to the
-- longest TTL ahead, one row per height that has an edge (mainnet: up to ~180 000 rows per count). Here the same edges
-- are summed per span of 100 and of 10 000 heights, so a suffix sum from a height x reads at most the edges up to the
-- next multiple of 100, the 100-spans up to the next multiple of 10 000, and the 10 000-spans above it: about 220
-- rows whatever the chain and the names. Kept from name_count_edges by a row trigger, so in the same statement as the
-- edges (a batch, a fork's rollback, a -H reload); a span whose counts fall to zero is deleted; `mdw -v` recounts them
-- (src/db/queries/derive-check.ts). PostgreSQL 11 compatible.
CREATE TABLE name_count_spans (
  -- the owner, '' for every owner's names (as name_count_edges)
  owner      text NOT NULL,
  -- the span's width in heights: 100 or 10000
  width      integer NOT NULL,
  -- the span's number: its heights are [span * width, (span + 1) * width)
  span       integer NOT NULL,
  expiring   bigint NOT NULL,
  activating bigint NOT NULL,
  PRIMARY KEY (owner, width, span)
);

CREATE FUNCTION name_count_spans_apply() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  d name_count_edges;
BEGIN
  -- the change to one edge row, signed: a new row adds, a deleted one subtracts, an update adds the difference
  IF TG_OP = 'DELETE' THEN
    d := OLD;
    d.expiring := -OLD.expiring;
    d.activating := -OLD.activating;
  ELSE
    d := NEW;
    IF TG_OP = 'UPDATE' THEN
      d.expiring := NEW.expiring - OLD.expiring;
      d.activating := NEW.activating - OLD.activating;
    END IF;
  END IF;
  IF d.expiring = 0 AND d.activating = 0 THEN
    RETURN NULL;
  END IF;
  INSERT INTO name_count_spans AS k (owner, width, span, expiring, activating)
  SELECT d.owner, w.width, d.height / w.width, d.expiring, d.activating FROM (VALUES (100), (10000)) w(width)
  ON CONFLICT (owner, width, span) DO UPDATE SET expiring = k.expiring + excluded.expiring,
                                                 activating = k.activating + excluded.activating;
  DELETE FROM name_count_spans k
   WHERE k.owner = d.owner AND k.width IN (100, 10000) AND k.span IN (d.height / 100, d.height / 10000)
     AND k.span = d.height / k.width AND k.expiring = 0 AND k.activating = 0;
  RETURN NULL;
END
$$;

CREATE TRIGGER name_count_spans_on_change AFTER INSERT OR UPDATE OR DELETE ON name_count_edges
  FOR EACH ROW EXECUTE FUNCTION name_count_spans_apply();

-- the trigger function works on this schema's tables whatever the caller's search_path (as 1006 sets the others)
DO $$
BEGIN
  EXECUTE format('ALTER FUNCTION name_count_spans_apply() SET search_path = %I', current_schema());
END
$$;

-- the edges stored before this migration, summed once
INSERT INTO name_count_spans (owner, width, span, expiring, activating)
SELECT e.owner, w.width, e.height / w.width, sum(e.expiring), sum(e.activating)
  FROM name_count_edges e CROSS JOIN (VALUES (100), (10000)) w(width)
 GROUP BY 1, 2, 3 HAVING sum(e.expiring) <> 0 OR sum(e.activating) <> 0;
