-- Issue 88: a contract's own-event test inlined (bench/postgres-instructions.ts).
--
-- call_logs_own_event (1015), the predicate of contract_calls_own_log and the contract logs' filter
-- (queries/contracts.ts), was a SQL function with a subquery (EXISTS over jsonb_array_elements), which PostgreSQL never
-- inlines: each row paid a SQL function's call, about 33 000 instructions, when the index is built at the top of a
-- catch-up from genesis (deferred, 1140) and at every call stored after. Here it is a containment test, which
-- PostgreSQL inlines, in the index as in the query (both are planned from the inlined expression, so the query still
-- walks the index): the index's build at least 33 M instructions less on 1 001 generations (callgrind), 3.3k a
-- transaction. The same answer for every log the node writes (an array of entries whose address is a string): true
-- where an entry of the log has the contract's address; false, as before, where none has or there is no log.
-- IMMUTABLE, of immutable functions alone (jsonb_build_object is stable) and without settings, or PostgreSQL would not
-- inline it.
-- PostgreSQL 11 compatible.
CREATE OR REPLACE FUNCTION call_logs_own_event(call_info jsonb, called text) RETURNS boolean LANGUAGE sql IMMUTABLE
AS $$
  SELECT coalesce(called IS NOT NULL AND jsonb_typeof(call_info->'log') = 'array'
                  AND call_info->'log' @> ('[]'::jsonb || jsonb_object('{address}', ARRAY[called])), false)
$$;
