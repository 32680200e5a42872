-- The int_calls area's gaps as /v3/status reports them (`mdw_incomplete_areas`): per reason how many calls no dry-run
-- told, kept by statement triggers on contract_internal_call_gaps (counted here, never at a request), and the first
-- and last height of each reason by its index.
CREATE INDEX contract_internal_call_gaps_reason ON contract_internal_call_gaps (reason, height);

CREATE TABLE contract_internal_call_gap_totals (
  reason text PRIMARY KEY,
  calls  bigint NOT NULL
);

CREATE FUNCTION contract_internal_call_gap_totals_add() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO contract_internal_call_gap_totals AS t (reason, calls)
  SELECT g.reason, count(*) FROM new_gaps g GROUP BY g.reason
  ON CONFLICT (reason) DO UPDATE SET calls = t.calls + excluded.calls;
  RETURN NULL;
END
$$;

CREATE FUNCTION contract_internal_call_gap_totals_remove() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE contract_internal_call_gap_totals t SET calls = t.calls - d.n
    FROM (SELECT g.reason, count(*) AS n FROM old_gaps g GROUP BY g.reason) d
   WHERE t.reason = d.reason;
  DELETE FROM contract_internal_call_gap_totals WHERE calls = 0;
  RETURN NULL;
END
$$;

CREATE TRIGGER contract_internal_call_gap_totals_on_insert AFTER INSERT ON contract_internal_call_gaps
  REFERENCING NEW TABLE AS new_gaps FOR EACH STATEMENT
  EXECUTE FUNCTION contract_internal_call_gap_totals_add();
CREATE TRIGGER contract_internal_call_gap_totals_on_delete AFTER DELETE ON contract_internal_call_gaps
  REFERENCING OLD TABLE AS old_gaps FOR EACH STATEMENT
  EXECUTE FUNCTION contract_internal_call_gap_totals_remove();

INSERT INTO contract_internal_call_gap_totals (reason, calls)
SELECT reason, count(*) FROM contract_internal_call_gaps GROUP BY reason;
