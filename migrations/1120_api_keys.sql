-- API keys and their quotas' counters (docs/operations.md, "API keys and quotas"). Read and written only by servers
-- with API_KEYS on and by `mdw keys`; nothing of the chain refers to them, so no height cascade.

-- One row per key: only its SHA-256 is kept (the key is 256 random bits: no dictionary to try, so a slow hash would
-- only cost each request's lookup). `id` is what lists, logs and metrics name; `source` tells keys made with
-- `mdw keys create` ('cli') from those a server reads from API_KEYS_FILE ('file': revoked when they leave the file).
CREATE TABLE api_keys (
  id         text PRIMARY KEY,
  key_sha256 bytea NOT NULL UNIQUE,
  name       text NOT NULL,
  tier       text NOT NULL,
  source     text NOT NULL CHECK (source IN ('cli', 'file')),
  created_at timestamptz NOT NULL DEFAULT now(),
  revoked_at timestamptz,
  -- the servers reread the keys changed since their last read
  changed_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX api_keys_changed ON api_keys (changed_at);

-- Requests counted per subject (a key id, or `addr:<address>` for the anonymous tier) and window: every server adds
-- what it let in since its last flush and reads the totals of all, so a quota holds across replicas.
CREATE TABLE api_quota_usage (
  subject        text NOT NULL,
  window_seconds integer NOT NULL,
  -- the window's start, in seconds since the epoch
  window_start   bigint NOT NULL,
  used           bigint NOT NULL,
  PRIMARY KEY (subject, window_seconds, window_start)
);
-- the flush drops windows that have ended
CREATE INDEX api_quota_usage_ended ON api_quota_usage (window_start);

-- What each server holds now per subject (websocket connections, subscriptions, running exports), rewritten by the
-- server every second: a server counts the others' fresh rows with its own, so a tier's limit holds across replicas.
-- A server gone stops refreshing its rows (seen_at), which the others then ignore.
CREATE TABLE api_held (
  server  text NOT NULL,
  subject text NOT NULL,
  kind    text NOT NULL,
  held    integer NOT NULL,
  seen_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (server, subject, kind)
);
