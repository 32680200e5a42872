-- Migration 1060's spans kept by statement triggers (issue 57, the populator's speed): its row trigger ran an upsert
-- and a delete per edge row written, 77 % of a name-state refresh's time. Here each statement writing
-- name_count_edges applies its rows at once: their signed changes (a new row adds, a deleted one subtracts, an updated
-- one adds its new values and subtracts its old) summed per (owner, width, span) in one upsert, then the spans it left
-- at zero deleted, each by its key. 1045's trigger writes the edges by INSERT … ON CONFLICT DO UPDATE: its inserted rows are in
-- the INSERT trigger's transition table, its updated rows in the UPDATE trigger's (old and new), each once. The edges'
-- statements run inside name_state's, so the spans stay exact in the same snapshot (a batch, a fork's rollback, a -H
-- reload). The spans themselves are unchanged. PostgreSQL 11 compatible.
DROP TRIGGER name_count_spans_on_change ON name_count_edges;
DROP FUNCTION name_count_spans_apply();

CREATE FUNCTION name_count_spans_apply() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  -- the statement's rows as they are after it and as they were before it (a trigger names only its event's tables,
  -- and only the branch of its event reads them); rows of zeros change no span
  added name_count_edges[] := '{}';
  removed name_count_edges[] := '{}';
  zeroed name_count_spans[];
  z name_count_spans;
BEGIN
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    added := ARRAY(SELECT n FROM new_rows n WHERE n.expiring <> 0 OR n.activating <> 0);
  END IF;
  IF TG_OP IN ('DELETE', 'UPDATE') THEN
    removed := ARRAY(SELECT o FROM old_rows o WHERE o.expiring <> 0 OR o.activating <> 0);
  END IF;
  IF cardinality(added) = 0 AND cardinality(removed) = 0 THEN
    RETURN NULL;
  END IF;
  WITH changed AS (
    INSERT INTO name_count_spans AS k (owner, width, span, expiring, activating)
    SELECT d.owner, w.width, d.height / w.width, sum(d.expiring), sum(d.activating)
      FROM (SELECT a.owner, a.height, a.expiring, a.activating FROM unnest(added) a
            UNION ALL
            SELECT r.owner, r.height, -r.expiring, -r.activating FROM unnest(removed) r) d
     CROSS JOIN (VALUES (100), (10000)) w(width)
     GROUP BY 1, 2, 3 HAVING sum(d.expiring) <> 0 OR sum(d.activating) <> 0
    ON CONFLICT (owner, width, span) DO UPDATE SET expiring = k.expiring + excluded.expiring,
                                                   activating = k.activating + excluded.activating
    RETURNING k.*
  )
  SELECT array_agg(ROW(c.*)::name_count_spans) INTO zeroed FROM changed c WHERE c.expiring = 0 AND c.activating = 0;
  -- few if any: each by its key (a join of the spans with the array may scan them all, the owners' too)
  FOREACH z IN ARRAY coalesce(zeroed, '{}') LOOP
    DELETE FROM name_count_spans k
     WHERE k.owner = z.owner AND k.width = z.width AND k.span = z.span AND k.expiring = 0 AND k.activating = 0;
  END LOOP;
  RETURN NULL;
END
$$;

CREATE TRIGGER name_count_spans_on_insert AFTER INSERT ON name_count_edges
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION name_count_spans_apply();
CREATE TRIGGER name_count_spans_on_delete AFTER DELETE ON name_count_edges
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION name_count_spans_apply();
CREATE TRIGGER name_count_spans_on_update AFTER UPDATE ON name_count_edges
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION name_count_spans_apply();

-- the trigger function works on this schema's tables whatever the caller's search_path (as 1006 sets the others)
DO $$
BEGIN
  EXECUTE format('ALTER FUNCTION name_count_spans_apply() SET search_path = %I', current_schema());
END
$$;
