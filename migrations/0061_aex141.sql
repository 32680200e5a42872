-- AEX-141 NFTs as ae_mdw indexes them: the standard events of registered collections (aexn_contracts of type
-- aex141; events of other contracts are not kept), one row each with its height, so a fork rollback or a -H
-- reload takes them away with their heights. aex141_tokens (the current owner of each token) is a pure
-- function of those events, kept by statement triggers as name_state is (0002): every statement that inserts
-- or deletes events recomputes the tokens it touched, in the same transaction.
-- PostgreSQL 11 compatible.

CREATE TABLE aex141_events (
  height      integer NOT NULL REFERENCES key_blocks (height) ON DELETE CASCADE,
  micro_index integer NOT NULL,
  tx_index    integer NOT NULL,
  tx_hash     text    NOT NULL,
  log_idx     integer NOT NULL,
  contract_id text    NOT NULL,
  -- transfer, mint, burn, template_mint, template_creation, template_deletion, token_limit, template_limit,
  -- edition_limit (a limit's decrease is its new limit)
  kind        text    NOT NULL,
  from_id     text,
  to_id       text,
  token_id    numeric,
  template_id numeric,
  limit_value numeric,
  -- TemplateMint's edition serial
  edition     text
);
CREATE INDEX aex141_events_height ON aex141_events (height);
CREATE INDEX aex141_events_token ON aex141_events (contract_id, token_id, height, micro_index, tx_index, log_idx);
CREATE INDEX aex141_events_kind ON aex141_events (contract_id, kind, height, micro_index, tx_index, log_idx);
CREATE INDEX aex141_events_from ON aex141_events (from_id, height, micro_index, tx_index, log_idx) WHERE kind = 'transfer';
CREATE INDEX aex141_events_to ON aex141_events (to_id, height, micro_index, tx_index, log_idx) WHERE kind = 'transfer';

-- Every existing token (minted, not burned): its owner after its latest ownership event, and its template mint.
CREATE TABLE aex141_tokens (
  contract_id   text    NOT NULL,
  token_id      numeric NOT NULL,
  owner_id      text    NOT NULL,
  template_id   numeric,
  mint_tx_hash  text,
  mint_log_idx  integer,
  edition       text,
  PRIMARY KEY (contract_id, token_id)
);
CREATE INDEX aex141_tokens_owner ON aex141_tokens (owner_id, contract_id, token_id);
CREATE INDEX aex141_tokens_template ON aex141_tokens (contract_id, template_id, token_id) WHERE template_id IS NOT NULL;

CREATE FUNCTION aex141_tokens_refresh(contracts text[], tokens numeric[]) RETURNS void LANGUAGE sql AS $$
  DELETE FROM aex141_tokens t USING unnest(contracts, tokens) AS k(contract_id, token_id)
   WHERE t.contract_id = k.contract_id AND t.token_id = k.token_id;
  INSERT INTO aex141_tokens (contract_id, token_id, owner_id, template_id, mint_tx_hash, mint_log_idx, edition)
  SELECT l.contract_id, l.token_id, l.to_id, m.template_id, m.tx_hash, m.log_idx, m.edition
    FROM unnest(contracts, tokens) AS k(contract_id, token_id)
   CROSS JOIN LATERAL (SELECT e.contract_id, e.token_id, e.kind, e.to_id FROM aex141_events e
                        WHERE e.contract_id = k.contract_id AND e.token_id = k.token_id
                          AND e.kind IN ('transfer', 'mint', 'burn', 'template_mint')
                        ORDER BY e.height DESC, e.micro_index DESC, e.tx_index DESC, e.log_idx DESC LIMIT 1) l
    LEFT JOIN LATERAL (SELECT e.template_id, e.tx_hash, e.log_idx, e.edition FROM aex141_events e
                        WHERE e.contract_id = k.contract_id AND e.token_id = k.token_id AND e.kind = 'template_mint'
                        ORDER BY e.height DESC, e.micro_index DESC, e.tx_index DESC, e.log_idx DESC LIMIT 1) m ON true
   WHERE l.kind <> 'burn';
$$;

CREATE FUNCTION aex141_tokens_after_events() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  contracts text[];
  tokens numeric[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(contract_id), array_agg(token_id) INTO contracts, tokens
      FROM (SELECT DISTINCT contract_id, token_id FROM new_events WHERE token_id IS NOT NULL) d;
  ELSE
    SELECT array_agg(contract_id), array_agg(token_id) INTO contracts, tokens
      FROM (SELECT DISTINCT contract_id, token_id FROM old_events WHERE token_id IS NOT NULL) d;
  END IF;
  IF contracts IS NOT NULL THEN
    PERFORM aex141_tokens_refresh(contracts, tokens);
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER aex141_tokens_on_insert AFTER INSERT ON aex141_events
  REFERENCING NEW TABLE AS new_events FOR EACH STATEMENT EXECUTE PROCEDURE aex141_tokens_after_events();
CREATE TRIGGER aex141_tokens_on_delete AFTER DELETE ON aex141_events
  REFERENCING OLD TABLE AS old_events FOR EACH STATEMENT EXECUTE PROCEDURE aex141_tokens_after_events();

-- As in 0002: the functions work on this schema's tables whatever the caller's search_path.
DO $$
BEGIN
  EXECUTE format('ALTER FUNCTION aex141_tokens_refresh(text[], numeric[]) SET search_path = %I', current_schema());
  EXECUTE format('ALTER FUNCTION aex141_tokens_after_events() SET search_path = %I', current_schema());
END
$$;
