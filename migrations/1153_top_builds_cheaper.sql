-- Issue 88: what a catch-up from genesis builds at the top (1140, src/db/writes/deferred-builds.ts) made cheaper, and
-- the ANALYZE of name_state after it (bench/postgres-instructions.ts; each index's build counted by cachegrind in a
-- backend of its own on the bench's chain of 2 001 generations, 20 000 transactions, 1 194 names).
--
-- name_state_active (1001) is read by no statement: every route's plan over a loaded and analyzed chain takes another
-- index for the names active at a height (the order's walk: name_state_created, _expires, _deactivation, _name or
-- _auction_end, or an owner's names), as the names' counts come from the kept tables (1045, 1060); only a count of
-- the active names, which no route asks, chose it. Dropped, and no longer built at the top or kept at each name written.
--
-- name_state_name_grams (1076) compared its keys, one- and two-character texts, by the database's collation: its build
-- was the costliest at the top (about 295 M instructions, 15k a transaction: 70 M the grams computed, the rest the GIN
-- of their 47 000 keys, a third of that their comparisons through strcoll, under C.UTF-8 already and more under a
-- language's collation). Its keys are compared in
-- "C" now (byte order): the same keys, as the containment the names' search asks (queries/names.ts) is equality of
-- texts, which no deterministic collation tells apart from bytes: 71 M less. The query asks `name_grams(s.name) COLLATE
-- "C" @> …`, or PostgreSQL would not take the index; its estimate reads the same statistics. A schema whose catch-up
-- left it to the top (deferred_builds) builds the new one there.
--
-- call_logs_own_event (1151), the predicate of contract_calls_own_log and the contract logs' filter, read the call's
-- log twice, its type and then its containment: the containment alone gives the same answer for every log (an object, a
-- string, a number, null or no log holds no array of entries: false), the index's build 77 M -> 64 M. The same
-- function inlined, in the index and in the query.
--
-- The ANALYZE of name_state (at the top, and autovacuum's) skips the columns no statement's estimate reads: name_hash
-- (its primary key tells the planner it is unique), tx_hash (no statement filters on it) and pointers (read in a join's
-- condition only, whose estimate is PostgreSQL's constant for jsonb's @>): 30 M of its 209 M.
-- PostgreSQL 11 compatible.
DROP INDEX IF EXISTS name_state_active;
DELETE FROM deferred_builds WHERE name = 'name_state_active';

ALTER TABLE name_state
  ALTER COLUMN name_hash SET STATISTICS 0,
  ALTER COLUMN tx_hash SET STATISTICS 0,
  ALTER COLUMN pointers SET STATISTICS 0;

CREATE OR REPLACE FUNCTION call_logs_own_event(call_info jsonb, called text) RETURNS boolean LANGUAGE sql IMMUTABLE
AS $$
  SELECT coalesce(called IS NOT NULL
                  AND call_info->'log' @> ('[]'::jsonb || jsonb_object('{address}', ARRAY[called])), false)
$$;

DO $$
BEGIN
  IF to_regclass(format('%I.name_state_name_grams', current_schema())) IS NOT NULL THEN
    DROP INDEX name_state_name_grams;
    CREATE INDEX name_state_name_grams ON name_state USING gin ((name_grams(name)) COLLATE "C");
    -- the planner's estimates of the new index's expression (1076)
    ANALYZE name_state;
  END IF;
END
$$;
