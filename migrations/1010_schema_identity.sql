-- What this schema holds and who owns it: recorded by the first write, checked by every role (docs/operations.md,
-- "Chain identity"). One row at most.
CREATE TABLE schema_identity (
  singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
  network_id text,
  genesis_hash text,
  owner_uid text,
  owner_name text,
  recorded_at timestamptz NOT NULL DEFAULT now()
);
