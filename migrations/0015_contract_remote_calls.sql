-- The contracts a call reached through another contract (a remote call), as far as a node's HTTP API shows
-- them: a contract whose event is in the log of a call to another contract took part in that call. ae_mdw's
-- `contract` activities are the internal calls the node records inside itself (Chain.spend, Call.amount, …),
-- which no HTTP API of the node gives; these rows let /v3/accounts/{ct_}/activities?type=contract list the
-- calls that reached a contract without naming it. One row per (call, emitting contract), kept by statement
-- triggers on contract_calls, so every way a call is written (COPY or INSERT) adds its rows, and a fork or a
-- reload deleting heights takes them away (the foreign key) with nothing of the populator's own.
-- PostgreSQL 11 compatible.

CREATE TABLE contract_remote_calls (
  contract_id text    NOT NULL,
  height      integer NOT NULL REFERENCES key_blocks (height) ON DELETE CASCADE,
  micro_index integer NOT NULL,
  tx_index    integer NOT NULL,
  PRIMARY KEY (contract_id, height, micro_index, tx_index)
);
CREATE INDEX contract_remote_calls_height ON contract_remote_calls (height);

-- the contracts other than the called one whose events a call's log holds
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
  REFERENCING NEW TABLE AS new_calls FOR EACH STATEMENT EXECUTE PROCEDURE contract_remote_calls_add();

-- As in 0003: the function works on this schema's tables whatever the caller's search_path.
DO $$
BEGIN
  EXECUTE format('ALTER FUNCTION contract_remote_calls_add() SET search_path = %I', current_schema());
END
$$;

-- the calls stored before this migration
INSERT INTO contract_remote_calls (contract_id, height, micro_index, tx_index)
SELECT e.contract_id, c.height, c.micro_index, c.tx_index
  FROM contract_calls c CROSS JOIN LATERAL remote_log_emitters(c.call_info, c.contract_id) e(contract_id)
ON CONFLICT DO NOTHING;
