-- The names' substring search (/middleware/names/{query}, issue 57) of a query holding a dot, a whole name above all.
-- pg_trgm's index (src/db/name-search-index.ts) read the posting lists of all the query's trigrams, and those of
-- `.chain` hold every name: for each name holding its rarest trigram, GIN decodes a leaf page of each of them, so a
-- whole name cost more as the names grew (106 blocks at 0.5 % of mainnet). A name of the form `label.chain` (one
-- dot) holds such a query only where the query's first dot is its own, so it ends with the query's part before that
-- dot and `.chain`: a range of this index of the names reversed (text_pattern_ops: a LIKE's prefix in any collation;
-- 4 blocks). The names of another form (the `.test` names of mainnet's first year; none since Lima) are read from
-- the partial index, a set that does not grow, and kept by the query's LIKE (queries/names.ts, whose text of the
-- predicate is this one: the planner matches a partial index by it). Built in the migration's transaction (the
-- populator's writes of names wait for one pass over name_state, the servers read on; not concurrently:
-- docs/operations.md, "Migrations of a large table"), then analyzed: the planner estimates a range of the reversed
-- names from their statistics, which autovacuum gathers only once a tenth of the names changed.
CREATE INDEX name_state_name_reversed ON name_state (reverse(name) text_pattern_ops);
CREATE INDEX name_state_name_not_label_chain ON name_state (name) WHERE name !~ '^[^.]*\.chain$';
ANALYZE name_state;
