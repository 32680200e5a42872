-- Webhooks (issue 77, docs/webhooks.md): a hook is a receiver's URL with filters; its deliveries are rows the populator
-- writes in the batch transaction of the blocks they come from (src/db/writes/webhook-deliveries.ts), so a crash, a
-- restart, a fork or a reload with -H loses none and invents none. The hooks themselves are no chain data: they stay
-- whatever happens to the heights.
CREATE TABLE webhooks (
  id               text PRIMARY KEY,
  -- the API key's id that created it; null when keys are off (WEBHOOKS_ANONYMOUS)
  owner            text,
  url              text NOT NULL,
  -- the filters as given (what GET shows); webhook_match_keys holds what the populator matches
  filters          jsonb NOT NULL,
  confirmations    integer NOT NULL,
  -- the HMAC key of its signatures: the sender needs it in clear, so it is shown once and never served again
  secret           text NOT NULL,
  -- the stored top when it was created (-1: none): a hook gets the blocks of the batches that commit after it was
  -- created (a replay reaches below)
  created_height   integer NOT NULL,
  created_at       timestamptz NOT NULL DEFAULT now(),
  -- set once the retries of a delivery ran out: the sender skips the hook and says why
  disabled_reason  text,
  -- when the sender may next try its first undelivered row (a failure moves it by the backoff)
  next_attempt_at  timestamptz NOT NULL DEFAULT now(),
  -- a sender holds a hook while it sends: one sender at a time, so its rows go out in order
  lease_owner      text,
  lease_until      timestamptz
);
CREATE INDEX webhooks_owner ON webhooks (owner, id);

-- One row per id a hook's filter watches (an account, a name's hash, an oracle, a contract), matched against the
-- batch's account_transactions rows by the id's key.
CREATE TABLE webhook_match_keys (
  webhook_id  text NOT NULL REFERENCES webhooks ON DELETE CASCADE,
  -- the filter's place in the hook's list: a delivery names which filter matched
  filter_idx  integer NOT NULL,
  id_key      bytea NOT NULL,
  -- the outer transaction types that count (null: all)
  tx_types    smallint[],
  -- a regular expression the row's fields must match (null: any field), e.g. a recipient field for `in`
  fields_re   text,
  PRIMARY KEY (webhook_id, filter_idx)
);
CREATE INDEX webhook_match_keys_key ON webhook_match_keys (id_key);

-- A hook's deliveries in the order they go out: (height, rank, micro_index, tx_index, seq); a reorg (rank 0) goes
-- before the new chain's events at its height.
CREATE TABLE webhook_deliveries (
  webhook_id      text NOT NULL REFERENCES webhooks ON DELETE CASCADE,
  -- the idempotency key (Mdw-Delivery-Id): the same event of the same block has the same id, however often written
  delivery_id     text NOT NULL,
  type            text NOT NULL,
  height          integer NOT NULL,
  rank            smallint NOT NULL,
  micro_index     integer NOT NULL,
  tx_index        integer NOT NULL,
  seq             bigserial NOT NULL,
  block_hash      text,
  tx_hash         text,
  -- a reorg's invalidated delivery ids
  invalidated     text[],
  status          text NOT NULL DEFAULT 'pending',
  attempts        integer NOT NULL DEFAULT 0,
  last_error      text,
  last_attempt_at timestamptz,
  sent_at         timestamptz,
  created_at      timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (webhook_id, delivery_id)
);
CREATE INDEX webhook_deliveries_order ON webhook_deliveries (webhook_id, height, rank, micro_index, tx_index, seq);
CREATE INDEX webhook_deliveries_pending ON webhook_deliveries (webhook_id) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_height ON webhook_deliveries (height);

-- the rows go with their heights, as every area's rows (1005); the populator tells the receiver what went that it had
-- tried to deliver (a reorg delivery) before it deletes them
CREATE TRIGGER webhook_deliveries_on_key_blocks_delete AFTER DELETE ON key_blocks
  REFERENCING OLD TABLE AS old_blocks FOR EACH STATEMENT
  EXECUTE FUNCTION cascade_deleted_heights('webhook_deliveries');
