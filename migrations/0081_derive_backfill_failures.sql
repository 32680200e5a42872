-- A derived area that fails does not stop the chain: the populator defers the area's heights to derive_backfill
-- (0080) and goes on following; the backfill retries them. A failing area shows here (and in
-- /middleware/status's populator.derivations): since when it fails and its last error, cleared when it derives again.
-- PostgreSQL 11 compatible.

ALTER TABLE derive_backfill
  ADD COLUMN failing_since timestamptz,
  ADD COLUMN last_error    text;
