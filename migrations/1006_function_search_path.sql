-- 0.1.0 baseline: the functions that read or write this schema's tables work on them whatever the caller's
-- search_path (a trigger fires for any session). The schema's name is known only here, at migration time
-- (one schema per data generation), so it is set on each function after the fact. Left out: the IMMUTABLE ones
-- and aex9_refuse_update, which read no table. A later migration that adds such a function sets it the same way.
DO $$
DECLARE
  f regprocedure;
BEGIN
  FOR f IN SELECT p.oid FROM pg_proc p
            WHERE p.pronamespace = current_schema()::regnamespace
              AND p.provolatile <> 'i' AND p.proname <> 'aex9_refuse_update'
  LOOP
    EXECUTE format('ALTER FUNCTION %s SET search_path = %I', f, current_schema());
  END LOOP;
END
$$;
