-- The webhook sender prunes the deliveries that are done (sent, or given up with their hook disabled) once they are
-- older than WEBHOOK_RETENTION_MS and deeper than FORK_WINDOW (docs/webhooks.md, "Retention"): this index finds the
-- oldest of them without reading the rows still waiting.
CREATE INDEX webhook_deliveries_done ON webhook_deliveries ((coalesce(sent_at, last_attempt_at)))
  WHERE status <> 'pending';
