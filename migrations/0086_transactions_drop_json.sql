-- Every transaction has its stored form (0085): the JSON columns go. Their space is given back when 0087 rewrites the
-- table.
-- PostgreSQL 11 compatible.
ALTER TABLE transactions
  DROP COLUMN tx,
  DROP COLUMN signatures,
  ALTER COLUMN signed SET NOT NULL;
