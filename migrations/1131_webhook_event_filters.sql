-- A contract's event and an AEX-9 token's transfers as webhook filters (docs/webhooks.md, "Filters"): the populator
-- matches them against the log entries of the contract calls its batch wrote (contract_calls.call_info's log), one
-- delivery per entry. All null for a filter of transactions (matched against account_transactions by id_key).
ALTER TABLE webhook_match_keys
  -- the emitting contract (ct_…) and the event's topic 0 as the node prints it (a decimal integer)
  ADD COLUMN log_contract text,
  ADD COLUMN log_topic text,
  -- an account (its public key as a decimal integer) one of the topics at these indexes must be; null: any entry
  ADD COLUMN log_account text,
  ADD COLUMN log_account_topics smallint[],
  -- the delivery's type: contract_log or aex9_transfer
  ADD COLUMN log_delivery text;
CREATE INDEX webhook_match_keys_log ON webhook_match_keys (log_contract, log_topic) WHERE log_contract IS NOT NULL;
-- a log delivery's entry: its index in the call's log, oldest 0 (as ae_mdw numbers them)
ALTER TABLE webhook_deliveries ADD COLUMN log_idx integer;
