-- Issue 88: which snapshot `mdw snapshot import` restored into this schema, recorded once the restore committed and
-- this binary's migrations ran. An import whose comparison with the node failed (the node away for a moment) is run
-- again by its Job: it finds this snapshot's manifest here and only compares again, where it found the schema not
-- empty and refused. Not exported (a snapshot never carries its source's row). One row at most.
-- PostgreSQL 11 compatible.
CREATE TABLE snapshot_restored (
  singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
  manifest_sha256 text NOT NULL,
  top_height integer NOT NULL,
  top_hash text NOT NULL,
  restored_at timestamptz NOT NULL DEFAULT now()
);
