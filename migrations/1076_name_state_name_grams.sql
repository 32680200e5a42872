-- The names' substring search (/middleware/names/{query}, issue 57) of a query of one or two characters. Such a
-- query holds no trigram, so pg_trgm's index cannot serve it: when many names hold it the planner walks the expiry
-- order and stops at the page, and when few do it read the whole table, linear in the names (`zq` at 10 % of
-- mainnet: 23 850 blocks, about 52 ms with two parallel workers). This index holds each name's characters and pairs
-- of characters, so such a query reads the names holding it (queries/names.ts asks `name_grams(s.name) @> ARRAY[q]`
-- beside a strpos, this expression's text: the planner matches an expression index by it). PostgreSQL's own GIN
-- array operators: no extension needed. name_grams is IMMUTABLE (it reads no table: no search_path set, as 1006
-- says), its text counted in characters, as LIKE counts them. Built in the migration's transaction (the populator's
-- writes of names wait for one pass over name_state, the servers read on), then analyzed: the planner estimates the
-- share of names holding a character or a pair from the index's statistics, which autovacuum gathers only once a
-- tenth of the names changed. PostgreSQL 11 compatible.
CREATE FUNCTION name_grams(name text) RETURNS text[] LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT ARRAY(SELECT substr($1, i, n) FROM generate_series(1, length($1)) AS i, generate_series(1, 2) AS n
                WHERE i + n - 1 <= length($1))
$$;
CREATE INDEX name_state_name_grams ON name_state USING gin (name_grams(name));
ANALYZE name_state;
