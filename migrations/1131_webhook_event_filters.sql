-- A contract's event as a webhook filter (docs/webhooks.md, "Filters"): the populator matches it against the log
-- entries of the contract calls its batch wrote (contract_calls.call_info's log), one delivery per entry.
-- the emitting contract (ct_…) and the event's topic 0 as the node prints it (a decimal integer); null for a filter
-- of transactions (matched against account_transactions by id_key)
ALTER TABLE webhook_match_keys ADD COLUMN log_contract text, ADD COLUMN log_topic text;
CREATE INDEX webhook_match_keys_log ON webhook_match_keys (log_contract, log_topic) WHERE log_contract IS NOT NULL;
-- a contract_log delivery's entry: its index in the call's log, oldest 0 (as ae_mdw numbers them)
ALTER TABLE webhook_deliveries ADD COLUMN log_idx integer;
