-- Where each hook's deliveries had got to (docs/webhooks.md, "Blue/green reloads"): the position of the last one sent
-- (height, rank, micro_index, tx_index, log_idx or -1) and the generation schema whose sender sent it. With the hooks
-- in the configuration schema the generations share (DATABASE_CONFIG_SCHEMA, src/db/schema/shared-config.ts), another
-- generation's sender skips what that one sent and its populator writes nothing below that height, so a new generation
-- resumes each hook where the old one left it. Idempotent: on shared tables it runs once per generation.
ALTER TABLE webhooks ADD COLUMN IF NOT EXISTS reached integer[];
ALTER TABLE webhooks ADD COLUMN IF NOT EXISTS reached_schema text;
UPDATE webhooks SET reached_schema = current_schema() WHERE reached_schema IS NULL;
