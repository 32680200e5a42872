-- What only the servers' queries read (issue 88), which a catch-up into an empty schema leaves out and builds once the
-- stored chain reaches the node's top (src/db/writes/deferred-builds.ts): indexes, each built in one pass over its
-- table instead of updated for every row written (the names' GIN indexes above all), and the kept tables of the
-- names (their counts and pointees), each filled from name_state in one statement instead of kept by name_state's
-- triggers at every batch (the catch-up's PostgreSQL spent about a third of its extra time over 0.2.0 on these). A
-- row is one not built yet: `deferred` while the catch-up runs, `building` while it is built; /mdw/v3/status answers
-- them (mdw_deferred_builds). A query that would read a deferred index answers the same without it, reading more;
-- one of a deferred table answers from a table still empty.
CREATE TABLE deferred_builds (
  name  text PRIMARY KEY,
  kind  text NOT NULL CHECK (kind IN ('index', 'table')),
  state text NOT NULL CHECK (state IN ('deferred', 'building')),
  since timestamptz NOT NULL DEFAULT now()
);
