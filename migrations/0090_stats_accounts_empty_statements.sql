-- The first appearances' trigger (0070) added to the intervals even for a statement that changed no row: the
-- populator's upsert of a batch's accounts fires its INSERT and its UPDATE trigger every batch, and once the accounts
-- have been seen both are mostly empty, yet each still ran stats_intervals_add (a SQL function, planned at each call:
-- about 2 M instructions, three calls a batch). It now returns at once for empty transition tables; what it adds
-- otherwise is unchanged. PostgreSQL 11 compatible.
CREATE OR REPLACE FUNCTION stats_accounts_after() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    IF EXISTS (SELECT 1 FROM new_rows) THEN
      PERFORM stats_intervals_add(array_agg('total_accounts'::text), array_agg(day), array_agg(1::numeric)) FROM new_rows;
    END IF;
  END IF;
  IF TG_OP IN ('DELETE', 'UPDATE') THEN
    IF EXISTS (SELECT 1 FROM old_rows) THEN
      PERFORM stats_intervals_add(array_agg('total_accounts'::text), array_agg(day), array_agg(-1::numeric)) FROM old_rows;
    END IF;
  END IF;
  RETURN NULL;
END
$$;

-- as 0070 set it (CREATE OR REPLACE drops a function's settings)
DO $$
BEGIN
  EXECUTE format('ALTER FUNCTION stats_accounts_after() SET search_path = %I', current_schema());
END
$$;
