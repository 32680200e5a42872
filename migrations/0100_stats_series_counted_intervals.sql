-- The populator's batches count their own series in memory (src/indexer/stats-series.ts) and add the intervals of
-- the rows they insert themselves, from sums per series and UTC day: tens of rows, where the insert trigger of 0070
-- aggregated the thousands of per-height rows of a batch again (28 M instructions per 2000-transaction batch,
-- docs/benchmarks.md). The one statement that does so says it for itself: the transaction-local setting
-- mdw.series_intervals = 'added', which the writer sets before it and clears after it. Every other insert (the stored
-- derivation of backfills, -H reloads and `mdw -v`, a test's rows) has the trigger add them as before; deletes are
-- unchanged. PostgreSQL 11 compatible.
CREATE OR REPLACE FUNCTION stats_series_after() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    IF current_setting('mdw.series_intervals', true) = 'added' THEN
      RETURN NULL;
    END IF;
    PERFORM stats_intervals_add(array_agg(series), array_agg(day), array_agg(count)) FROM new_rows;
  ELSE
    PERFORM stats_intervals_add(array_agg(series), array_agg(day), array_agg(-count)) FROM old_rows;
  END IF;
  RETURN NULL;
END
$$;

-- as 0070 set it (CREATE OR REPLACE drops a function's settings)
DO $$
BEGIN
  EXECUTE format('ALTER FUNCTION stats_series_after() SET search_path = %I', current_schema());
END
$$;
