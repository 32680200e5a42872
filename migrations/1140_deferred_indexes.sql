-- The indexes only the servers' queries read (issue 88): a catch-up into an empty schema leaves them out and builds each
-- once the stored chain reaches the node's top (src/db/writes/deferred-indexes.ts), one pass over the table instead
-- of an update of the index for every row written (the names' GIN indexes above all: a catch-up's PostgreSQL spent
-- about a tenth of its time on them). A row is an index not built yet: `deferred` while the catch-up runs,
-- `building` while it is built; /mdw/v3/status answers them (mdw_deferred_indexes). A query that would read one
-- answers the same without it, reading more.
CREATE TABLE deferred_indexes (
  name  text PRIMARY KEY,
  state text NOT NULL CHECK (state IN ('deferred', 'building')),
  since timestamptz NOT NULL DEFAULT now()
);
