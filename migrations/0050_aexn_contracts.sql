-- AEX-N contracts: the contracts whose bytecode implements AEX-9 (fungible tokens) or AEX-141 (NFTs), found at
-- their creation as ae_mdw finds them (the type table of the FATE code), with the meta info a dry-run of
-- `meta_info()` read at the creation block. Contracts created inside calls (Chain.create, Chain.clone, as the
-- DEX factory makes its pairs) are found when they first emit an event or are called: over HTTP the node
-- does not list them. Every row carries the height of its creating transaction and goes when that height is
-- deleted (fork rollback, -H reload), by the statement trigger below, as the chain tables do (0003).
-- PostgreSQL 11 compatible.

CREATE TABLE aexn_contracts (
  contract_id     text    PRIMARY KEY,
  -- aex9 or aex141
  aexn_type       text    NOT NULL CHECK (aexn_type IN ('aex9', 'aex141')),
  -- the creating transaction (for contracts created inside calls: the call in which the contract was first seen)
  height          integer NOT NULL,
  micro_index     integer NOT NULL,
  tx_index        integer NOT NULL,
  tx_hash         text    NOT NULL,
  created_by_call boolean NOT NULL,
  -- meta_info(): name and symbol (C collation: ae_mdw sorts them bytewise), AEX-9 decimals, AEX-141 base URL
  -- and metadata type (url, ipfs, object_id, map)
  name            text    COLLATE "C",
  symbol          text    COLLATE "C",
  decimals        integer,
  base_url        text,
  metadata_type   text,
  extensions      text[]  NOT NULL DEFAULT '{}',
  -- meta_info() could not be read (it failed, or the node keeps no state at the creation block)
  meta_invalid    boolean NOT NULL DEFAULT false,
  -- AEX-9: the balances at creation could not be read, so balances from events alone are incomplete
  balances_unknown boolean NOT NULL DEFAULT false
);
CREATE INDEX aexn_contracts_height ON aexn_contracts (height);
CREATE INDEX aexn_contracts_creation ON aexn_contracts (aexn_type, height, micro_index, tx_index, contract_id);
CREATE INDEX aexn_contracts_name ON aexn_contracts (aexn_type, name, contract_id);
CREATE INDEX aexn_contracts_symbol ON aexn_contracts (aexn_type, symbol, contract_id);

-- Every contract created inside a call that the populator has checked, AEX-N or not (aexn_type null), so that
-- its code is fetched and detected once.
CREATE TABLE aexn_call_created (
  contract_id text    PRIMARY KEY,
  height      integer NOT NULL,
  micro_index integer NOT NULL,
  tx_index    integer NOT NULL,
  tx_hash     text    NOT NULL,
  aexn_type   text
);
CREATE INDEX aexn_call_created_height ON aexn_call_created (height);

CREATE FUNCTION aexn_after_key_blocks_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM aexn_contracts    WHERE height IN (SELECT height FROM old_blocks);
  DELETE FROM aexn_call_created WHERE height IN (SELECT height FROM old_blocks);
  RETURN NULL;
END
$$;

CREATE TRIGGER aexn_on_key_blocks_delete AFTER DELETE ON key_blocks
  REFERENCING OLD TABLE AS old_blocks FOR EACH STATEMENT EXECUTE PROCEDURE aexn_after_key_blocks_delete();

DO $$
BEGIN
  EXECUTE format('ALTER FUNCTION aexn_after_key_blocks_delete() SET search_path = %I', current_schema());
END
$$;
