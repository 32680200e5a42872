-- The ids each internal call concerns (ae_mdw's IdIntContractCall and GrpIntContractCall), walked by an id's
-- `contract` activities (/v3/accounts/{id}/activities): every id an internal call's transaction names in a `*_id`
-- field (the SpendTx's sender and recipient, the NameClaimTx's account, the name…), and the contract whose call made
-- it. Keyed as ae_mdw keys them, by public key: `id_key` is the id without its prefix, so a contract's `ct_` and the
-- `ak_` its Chain.spend names as sender meet. `owned`: the id acted (a field other than the recipient's, or the
-- called contract), what `owned_only` keeps.
CREATE TABLE contract_internal_call_ids (
  id_key      text NOT NULL,
  height      integer NOT NULL,
  micro_index integer NOT NULL,
  tx_index    integer NOT NULL,
  local_idx   integer NOT NULL,
  owned       boolean NOT NULL,
  PRIMARY KEY (id_key, height, micro_index, tx_index, local_idx)
);
CREATE INDEX contract_internal_call_ids_height ON contract_internal_call_ids (height);

-- the ids of internal calls (rows of contract_internal_calls) with their contract calls' contracts
CREATE FUNCTION contract_internal_call_id_rows(height integer, micro_index integer, tx_index integer, internal_tx jsonb)
  RETURNS TABLE (id_key text, owned boolean) LANGUAGE sql STABLE AS $$
  SELECT substr(n.id, 4), bool_or(n.owned)
    FROM (SELECT f.value AS id, f.key NOT IN ('recipient_id', 'responder_id', 'commitment_id') AS owned
            FROM jsonb_each_text($4) f
           WHERE f.key LIKE '%\_id' AND f.value ~ '^(ak|ct|ok|nm)_[1-9A-HJ-NP-Za-km-z]+$'
          UNION ALL
          SELECT c.contract_id, true FROM contract_calls c
           WHERE c.height = $1 AND c.micro_index = $2 AND c.tx_index = $3) n
   GROUP BY 1
$$;

CREATE FUNCTION contract_internal_call_ids_add() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO contract_internal_call_ids (id_key, height, micro_index, tx_index, local_idx, owned)
  SELECT d.id_key, i.height, i.micro_index, i.tx_index, i.local_idx, d.owned
    FROM new_calls i
   CROSS JOIN LATERAL contract_internal_call_id_rows(i.height, i.micro_index, i.tx_index, i.internal_tx) d
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END
$$;

CREATE TRIGGER contract_internal_call_ids_on_insert AFTER INSERT ON contract_internal_calls
  REFERENCING NEW TABLE AS new_calls FOR EACH STATEMENT
  EXECUTE FUNCTION contract_internal_call_ids_add();

-- the rows go with their heights (1005)
CREATE TRIGGER contract_internal_call_ids_on_key_blocks_delete AFTER DELETE ON key_blocks
  REFERENCING OLD TABLE AS old_blocks FOR EACH STATEMENT
  EXECUTE FUNCTION cascade_deleted_heights('contract_internal_call_ids');

-- the internal calls stored before this migration
INSERT INTO contract_internal_call_ids (id_key, height, micro_index, tx_index, local_idx, owned)
SELECT d.id_key, i.height, i.micro_index, i.tx_index, i.local_idx, d.owned
  FROM contract_internal_calls i
 CROSS JOIN LATERAL contract_internal_call_id_rows(i.height, i.micro_index, i.tx_index, i.internal_tx) d;
