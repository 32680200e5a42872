-- A hook's secret rotation (docs/webhooks.md, "Rotating the secret"): after `POST …/webhooks/{id}/rotate-secret` the
-- secret it replaced still signs every delivery beside the new one until previous_secret_until (24 h, or sooner when
-- the owner ends it with `DELETE …/webhooks/{id}/previous-secret`), so a receiver switches to the new one without a
-- delivery it cannot verify. Idempotent: on shared configuration tables (1133) it runs once per generation.
ALTER TABLE webhooks ADD COLUMN IF NOT EXISTS previous_secret text;
ALTER TABLE webhooks ADD COLUMN IF NOT EXISTS previous_secret_until timestamptz;
