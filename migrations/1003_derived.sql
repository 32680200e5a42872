-- 0.1.0 baseline: what the populator derives from the chain by the node's rules (internal transfers: rewards,
-- genesis accounts, name fees, oracle refunds; each generation's fees; ae_mdw's transaction index per generation)
-- and the contracts a call reached through another, plus the areas some stored heights still lack.

-- Key-block-level transfers sit at micro_index = tx_index = -1; ref_tx_hash is '' where no transaction caused one.
CREATE TABLE internal_transfers (
  height      integer NOT NULL,
  micro_index integer NOT NULL,
  tx_index    integer NOT NULL,
  kind        text NOT NULL,
  account_id  text NOT NULL,
  ref_tx_hash text DEFAULT '' NOT NULL,
  amount      numeric NOT NULL,
  PRIMARY KEY (height, micro_index, tx_index, kind, account_id, ref_tx_hash)
);
CREATE INDEX internal_transfers_account ON internal_transfers (account_id, height, micro_index, tx_index, kind, ref_tx_hash);

CREATE TABLE generation_fees (
  height integer NOT NULL,
  fees   numeric NOT NULL,
  PRIMARY KEY (height)
);

-- ae_mdw's txi of each generation's first transaction: a txi and a position convert with one probe.
CREATE TABLE generation_txis (
  height    integer NOT NULL,
  first_txi bigint NOT NULL,
  PRIMARY KEY (height)
);
CREATE INDEX generation_txis_first_txi ON generation_txis (first_txi, height);

-- One row per (call, contract whose event is in the call's log): the remote calls /v3 lists as activities.
CREATE TABLE contract_remote_calls (
  contract_id text NOT NULL,
  height      integer NOT NULL,
  micro_index integer NOT NULL,
  tx_index    integer NOT NULL,
  PRIMARY KEY (contract_id, height, micro_index, tx_index)
);
CREATE INDEX contract_remote_calls_height ON contract_remote_calls (height);

CREATE FUNCTION remote_log_emitters(call_info jsonb, called text) RETURNS SETOF text LANGUAGE sql IMMUTABLE AS $$
  SELECT DISTINCT e.entry->>'address'
    FROM jsonb_array_elements(CASE WHEN jsonb_typeof(call_info->'log') = 'array' THEN call_info->'log' ELSE '[]' END) e(entry)
   WHERE e.entry->>'address' LIKE 'ct\_%' AND e.entry->>'address' <> called
$$;

CREATE FUNCTION contract_remote_calls_add() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO contract_remote_calls (contract_id, height, micro_index, tx_index)
  SELECT e.contract_id, c.height, c.micro_index, c.tx_index
    FROM new_calls c CROSS JOIN LATERAL remote_log_emitters(c.call_info, c.contract_id) e(contract_id)
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END
$$;

CREATE TRIGGER contract_remote_calls_on_insert AFTER INSERT ON contract_calls
  REFERENCING NEW TABLE AS new_calls FOR EACH STATEMENT
  EXECUTE FUNCTION contract_remote_calls_add();

-- The derived areas whose rows some stored heights lack (a derivation deferred after failures): the populator
-- derives them from the stored rows in ascending batches (its derive backfill).
CREATE TABLE derive_backfill (
  area          text NOT NULL,
  -- the lowest stored height whose rows of the area are still to derive
  next_height   integer NOT NULL,
  -- derive through this height: the top stored when the need was recorded (heights written later
  -- derive in their batch)
  to_height     integer NOT NULL,
  failing_since timestamptz,
  last_error    text,
  PRIMARY KEY (area)
);

