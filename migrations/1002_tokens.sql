-- 0.1.0 baseline: AEX-N contracts (AEX-9 fungible tokens, AEX-141 NFTs) as ae_mdw finds them, their events and
-- what statement triggers keep from them (AEX-9 balances and contract state, AEX-141 tokens and owner counts), and
-- the DEX's pairs and swaps. Rows carry their height and go with it (1005_height_cascade).

-- Contracts whose bytecode implements AEX-9 or AEX-141, with the meta_info() read at their creation; those created
-- inside calls are found when they first emit an event or are called. Names and symbols sort bytewise (C).
CREATE TABLE aexn_contracts (
  contract_id      text NOT NULL,
  -- aex9 or aex141
  aexn_type        text NOT NULL CHECK (aexn_type IN ('aex9', 'aex141')),
  -- the creating transaction (for contracts created inside calls: the call in which the contract was first seen)
  height           integer NOT NULL,
  micro_index      integer NOT NULL,
  tx_index         integer NOT NULL,
  tx_hash          text NOT NULL,
  created_by_call  boolean NOT NULL,
  -- meta_info(): name and symbol (C collation: ae_mdw sorts them bytewise), AEX-9 decimals, AEX-141 base URL
  -- and metadata type (url, ipfs, object_id, map)
  name             text COLLATE "C",
  symbol           text COLLATE "C",
  decimals         integer,
  base_url         text,
  metadata_type    text,
  extensions       text[] DEFAULT '{}' NOT NULL,
  -- meta_info() could not be read (it failed, or the node keeps no state at the creation block)
  meta_invalid     boolean DEFAULT false NOT NULL,
  -- AEX-9: the balances at creation could not be read, so balances from events alone are incomplete
  balances_unknown boolean DEFAULT false NOT NULL,
  PRIMARY KEY (contract_id)
);
CREATE INDEX aexn_contracts_creation ON aexn_contracts (aexn_type, height, micro_index, tx_index, contract_id);
CREATE INDEX aexn_contracts_height ON aexn_contracts (height);
CREATE INDEX aexn_contracts_lower_name ON aexn_contracts (aexn_type, lower(name), contract_id COLLATE "C");
CREATE INDEX aexn_contracts_lower_symbol ON aexn_contracts (aexn_type, lower(symbol), contract_id COLLATE "C");
CREATE INDEX aexn_contracts_name ON aexn_contracts (aexn_type, name, contract_id COLLATE "C");
CREATE INDEX aexn_contracts_symbol ON aexn_contracts (aexn_type, symbol, contract_id COLLATE "C");

CREATE TABLE aexn_call_created (
  contract_id text NOT NULL,
  height      integer NOT NULL,
  micro_index integer NOT NULL,
  tx_index    integer NOT NULL,
  tx_hash     text NOT NULL,
  aexn_type   text,
  PRIMARY KEY (contract_id)
);
CREATE INDEX aexn_call_created_height ON aexn_call_created (height);

-- AEX-9 balance changes, one row per side of a transfer (side), inserted and deleted only.
CREATE TABLE aex9_events (
  contract_id text NOT NULL,
  -- C collation: holders list in the order of their public keys, as ae_mdw's (base58 of a fixed-size key
  -- sorts bytewise as the key does)
  account     text NOT NULL COLLATE "C",
  height      integer NOT NULL,
  micro_index integer NOT NULL,
  tx_index    integer NOT NULL,
  -- the event's index in its call's log (emission order); -1 for the balance at creation
  log_idx     integer NOT NULL,
  -- 0: the account the event takes from, 1: the one it gives to (a transfer to oneself moves both)
  side        smallint NOT NULL,
  tx_hash     text NOT NULL,
  -- seed (the balance at creation), transfer, mint, burn, swap, deposit, withdrawal
  kind        text NOT NULL,
  delta       numeric NOT NULL,
  PRIMARY KEY (contract_id, account, height, micro_index, tx_index, log_idx, side)
);
CREATE INDEX aex9_events_height ON aex9_events (height);

CREATE TABLE aex9_balances (
  contract_id text NOT NULL,
  account     text NOT NULL COLLATE "C",
  amount      numeric NOT NULL,
  height      integer NOT NULL,
  micro_index integer NOT NULL,
  tx_index    integer NOT NULL,
  log_idx     integer NOT NULL,
  tx_hash     text NOT NULL,
  PRIMARY KEY (contract_id, account)
);
CREATE INDEX aex9_balances_account_key ON aex9_balances (account, contract_id COLLATE "C");
CREATE INDEX aex9_balances_amount ON aex9_balances (contract_id, amount, account) WHERE (amount > (0)::numeric);

CREATE TABLE aex9_contract_state (
  contract_id    text NOT NULL,
  -- accounts with a positive balance
  holders        integer NOT NULL,
  -- the balances at creation, and what events minted less what they burned since
  initial_supply numeric NOT NULL,
  event_supply   numeric NOT NULL,
  -- balance-moving events (a transfer counts once)
  events_count   integer NOT NULL,
  PRIMARY KEY (contract_id)
);

CREATE TABLE aex9_transfers (
  contract_id text NOT NULL,
  sender      text NOT NULL,
  recipient   text NOT NULL,
  amount      numeric NOT NULL,
  height      integer NOT NULL,
  micro_index integer NOT NULL,
  tx_index    integer NOT NULL,
  log_idx     integer NOT NULL,
  tx_hash     text NOT NULL,
  PRIMARY KEY (contract_id, height, micro_index, tx_index, log_idx)
);
CREATE INDEX aex9_transfers_height ON aex9_transfers (height);
CREATE INDEX aex9_transfers_recipient ON aex9_transfers (recipient, height, micro_index, tx_index, log_idx);
CREATE INDEX aex9_transfers_sender ON aex9_transfers (sender, height, micro_index, tx_index, log_idx);

CREATE FUNCTION aex9_after_events() RETURNS trigger LANGUAGE plpgsql AS $_$
DECLARE
  changed text := CASE WHEN TG_OP = 'INSERT' THEN 'new_events' ELSE 'old_events' END;
  sign integer := CASE WHEN TG_OP = 'INSERT' THEN 1 ELSE -1 END;
BEGIN
  -- holders (from the balances before this statement) and supplies
  EXECUTE format($q$
    WITH moves AS (
      SELECT contract_id, account, $1 * sum(delta) AS delta FROM %1$I GROUP BY contract_id, account),
    holders AS (
      SELECT m.contract_id,
             sum((coalesce(b.amount, 0) + m.delta > 0)::int - (coalesce(b.amount, 0) > 0)::int) AS diff
        FROM moves m LEFT JOIN aex9_balances b ON b.contract_id = m.contract_id AND b.account = m.account
       GROUP BY m.contract_id),
    supply AS (
      SELECT contract_id,
             $1 * coalesce(sum(delta) FILTER (WHERE kind = 'seed'), 0) AS initial,
             $1 * coalesce(sum(delta) FILTER (WHERE kind NOT IN ('seed', 'transfer')), 0) AS minted,
             $1 * count(*) FILTER (WHERE kind <> 'seed' AND (side = 1 OR kind <> 'transfer')) AS events
        FROM %1$I GROUP BY contract_id)
    INSERT INTO aex9_contract_state AS s (contract_id, holders, initial_supply, event_supply, events_count)
    SELECT p.contract_id, coalesce(h.diff, 0), p.initial, p.minted, p.events
      FROM supply p LEFT JOIN holders h USING (contract_id)
    ON CONFLICT (contract_id) DO UPDATE
       SET holders = s.holders + EXCLUDED.holders,
           initial_supply = s.initial_supply + EXCLUDED.initial_supply,
           event_supply = s.event_supply + EXCLUDED.event_supply,
           events_count = s.events_count + EXCLUDED.events_count
  $q$, changed) USING sign;

  IF TG_OP = 'INSERT' THEN
    EXECUTE format($q$
      INSERT INTO aex9_balances AS b (contract_id, account, amount, height, micro_index, tx_index, log_idx, tx_hash)
      SELECT DISTINCT ON (contract_id, account) contract_id, account,
             sum(delta) OVER (PARTITION BY contract_id, account), height, micro_index, tx_index, log_idx, tx_hash
        FROM %1$I
       ORDER BY contract_id, account, height DESC, micro_index DESC, tx_index DESC, log_idx DESC, side DESC
      ON CONFLICT (contract_id, account) DO UPDATE
         SET amount = b.amount + EXCLUDED.amount,
             height = CASE WHEN %2$s THEN EXCLUDED.height ELSE b.height END,
             micro_index = CASE WHEN %2$s THEN EXCLUDED.micro_index ELSE b.micro_index END,
             tx_index = CASE WHEN %2$s THEN EXCLUDED.tx_index ELSE b.tx_index END,
             log_idx = CASE WHEN %2$s THEN EXCLUDED.log_idx ELSE b.log_idx END,
             tx_hash = CASE WHEN %2$s THEN EXCLUDED.tx_hash ELSE b.tx_hash END
    $q$, changed, '(EXCLUDED.height, EXCLUDED.micro_index, EXCLUDED.tx_index, EXCLUDED.log_idx) > (b.height, b.micro_index, b.tx_index, b.log_idx)');
  ELSE
    EXECUTE format($q$
      WITH moves AS (
        SELECT contract_id, account, -sum(delta) AS delta FROM %1$I GROUP BY contract_id, account)
      UPDATE aex9_balances b
         SET amount = b.amount + m.delta, height = l.height, micro_index = l.micro_index, tx_index = l.tx_index,
             log_idx = l.log_idx, tx_hash = l.tx_hash
        FROM moves m
        CROSS JOIN LATERAL (
          SELECT height, micro_index, tx_index, log_idx, tx_hash FROM aex9_events e
           WHERE e.contract_id = m.contract_id AND e.account = m.account
           ORDER BY height DESC, micro_index DESC, tx_index DESC, log_idx DESC, side DESC LIMIT 1) l
       WHERE b.contract_id = m.contract_id AND b.account = m.account
    $q$, changed);
    -- accounts left without any event are no longer listed, nor contracts without any
    EXECUTE format($q$
      DELETE FROM aex9_balances b
       USING (SELECT DISTINCT contract_id, account FROM %1$I) m
       WHERE b.contract_id = m.contract_id AND b.account = m.account
         AND NOT EXISTS (SELECT 1 FROM aex9_events e WHERE e.contract_id = m.contract_id AND e.account = m.account)
    $q$, changed);
    EXECUTE format($q$
      DELETE FROM aex9_contract_state s
       WHERE s.contract_id IN (SELECT DISTINCT contract_id FROM %1$I)
         AND NOT EXISTS (SELECT 1 FROM aex9_events e WHERE e.contract_id = s.contract_id)
    $q$, changed);
  END IF;
  RETURN NULL;
END
$_$;

CREATE FUNCTION aex9_refuse_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'aex9_events rows are only inserted and deleted';
END
$$;

CREATE TRIGGER aex9_on_insert AFTER INSERT ON aex9_events
  REFERENCING NEW TABLE AS new_events FOR EACH STATEMENT
  EXECUTE FUNCTION aex9_after_events();
CREATE TRIGGER aex9_on_delete AFTER DELETE ON aex9_events
  REFERENCING OLD TABLE AS old_events FOR EACH STATEMENT
  EXECUTE FUNCTION aex9_after_events();
CREATE TRIGGER aex9_no_update BEFORE UPDATE OR TRUNCATE ON aex9_events FOR EACH STATEMENT
  EXECUTE FUNCTION aex9_refuse_update();


CREATE TABLE aex141_events (
  height      integer NOT NULL,
  micro_index integer NOT NULL,
  tx_index    integer NOT NULL,
  tx_hash     text NOT NULL,
  log_idx     integer NOT NULL,
  contract_id text NOT NULL,
  -- transfer, mint, burn, template_mint, template_creation, template_deletion, token_limit, template_limit,
  -- edition_limit (a limit's decrease is its new limit)
  kind        text NOT NULL,
  from_id     text,
  to_id       text,
  token_id    numeric,
  template_id numeric,
  limit_value numeric,
  -- TemplateMint's edition serial
  edition     text
);
CREATE INDEX aex141_events_from ON aex141_events (from_id, height, micro_index, tx_index, log_idx) WHERE (kind = 'transfer'::text);
CREATE INDEX aex141_events_height ON aex141_events (height);
CREATE INDEX aex141_events_kind ON aex141_events (contract_id, kind, height, micro_index, tx_index, log_idx);
CREATE INDEX aex141_events_to ON aex141_events (to_id, height, micro_index, tx_index, log_idx) WHERE (kind = 'transfer'::text);
CREATE INDEX aex141_events_token ON aex141_events (contract_id, token_id, height, micro_index, tx_index, log_idx);
CREATE INDEX aex141_events_transfers ON aex141_events (height, micro_index, tx_index, log_idx) WHERE (kind = 'transfer'::text);

CREATE TABLE aex141_tokens (
  contract_id  text NOT NULL,
  token_id     numeric NOT NULL,
  owner_id     text NOT NULL,
  template_id  numeric,
  mint_tx_hash text,
  mint_log_idx integer,
  edition      text,
  PRIMARY KEY (contract_id, token_id)
);
CREATE INDEX aex141_tokens_owner ON aex141_tokens (owner_id, contract_id, token_id);
CREATE INDEX aex141_tokens_template ON aex141_tokens (contract_id, template_id, token_id) WHERE (template_id IS NOT NULL);

CREATE TABLE aex141_owner_counts (
  contract_id text NOT NULL,
  owner_id    text NOT NULL,
  tokens      integer NOT NULL,
  PRIMARY KEY (contract_id, owner_id)
);

CREATE TABLE aex141_collection_counts (
  contract_id text NOT NULL,
  nfts_amount integer NOT NULL,
  nft_owners  integer NOT NULL,
  PRIMARY KEY (contract_id)
);

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
  REFERENCING NEW TABLE AS new_events FOR EACH STATEMENT
  EXECUTE FUNCTION aex141_tokens_after_events();
CREATE TRIGGER aex141_tokens_on_delete AFTER DELETE ON aex141_events
  REFERENCING OLD TABLE AS old_events FOR EACH STATEMENT
  EXECUTE FUNCTION aex141_tokens_after_events();

CREATE FUNCTION aex141_counts_apply(contracts text[], owners text[], deltas integer[]) RETURNS void LANGUAGE sql AS $$
  WITH d AS (
    SELECT contract_id, owner_id, sum(delta)::int AS delta
      FROM unnest(contracts, owners, deltas) AS u(contract_id, owner_id, delta)
     GROUP BY contract_id, owner_id),
  moved AS (
    SELECT d.contract_id, d.owner_id, coalesce(o.tokens, 0) AS before, coalesce(o.tokens, 0) + d.delta AS after
      FROM d LEFT JOIN aex141_owner_counts o USING (contract_id, owner_id)
     WHERE d.delta <> 0),
  upserted AS (
    INSERT INTO aex141_owner_counts (contract_id, owner_id, tokens)
    SELECT contract_id, owner_id, after FROM moved WHERE after > 0
    ON CONFLICT (contract_id, owner_id) DO UPDATE SET tokens = excluded.tokens
    RETURNING 1),
  emptied AS (
    DELETE FROM aex141_owner_counts o USING moved m
     WHERE o.contract_id = m.contract_id AND o.owner_id = m.owner_id AND m.after = 0
    RETURNING 1),
  per_collection AS (
    SELECT contract_id, sum(after - before)::int AS tokens,
           (count(*) FILTER (WHERE before = 0 AND after > 0) - count(*) FILTER (WHERE before > 0 AND after = 0))::int AS owners
      FROM moved GROUP BY contract_id)
  INSERT INTO aex141_collection_counts (contract_id, nfts_amount, nft_owners)
  SELECT contract_id, tokens, owners FROM per_collection
  ON CONFLICT (contract_id) DO UPDATE
    SET nfts_amount = aex141_collection_counts.nfts_amount + excluded.nfts_amount,
        nft_owners = aex141_collection_counts.nft_owners + excluded.nft_owners;
$$;

CREATE FUNCTION aex141_counts_after_tokens() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  contracts text[];
  owners text[];
  deltas integer[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(contract_id), array_agg(owner_id), array_agg(1) INTO contracts, owners, deltas FROM new_tokens;
  ELSE
    SELECT array_agg(contract_id), array_agg(owner_id), array_agg(-1) INTO contracts, owners, deltas FROM old_tokens;
  END IF;
  IF contracts IS NOT NULL THEN
    PERFORM aex141_counts_apply(contracts, owners, deltas);
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER aex141_counts_on_insert AFTER INSERT ON aex141_tokens
  REFERENCING NEW TABLE AS new_tokens FOR EACH STATEMENT
  EXECUTE FUNCTION aex141_counts_after_tokens();
CREATE TRIGGER aex141_counts_on_delete AFTER DELETE ON aex141_tokens
  REFERENCING OLD TABLE AS old_tokens FOR EACH STATEMENT
  EXECUTE FUNCTION aex141_counts_after_tokens();

CREATE TABLE dex_pairs (
  height      integer NOT NULL,
  micro_index integer NOT NULL,
  tx_index    integer NOT NULL,
  tx_hash     text NOT NULL,
  log_idx     integer NOT NULL,
  -- the emitter of PairCreated
  factory_id  text NOT NULL,
  pair_id     text NOT NULL,
  -- the pair's tokens, sorted as the factory sorts them (token0 < token1 by address bytes)
  token0_id   text NOT NULL,
  token1_id   text NOT NULL
);
CREATE INDEX dex_pairs_height ON dex_pairs (height);
CREATE INDEX dex_pairs_pair ON dex_pairs (pair_id, factory_id);
CREATE INDEX dex_pairs_token0 ON dex_pairs (token0_id, factory_id);
CREATE INDEX dex_pairs_token1 ON dex_pairs (token1_id, factory_id);

CREATE TABLE dex_swaps (
  height      integer NOT NULL,
  micro_index integer NOT NULL,
  tx_index    integer NOT NULL,
  tx_hash     text NOT NULL,
  log_idx     integer NOT NULL,
  -- the emitter of SwapTokens (a pair, when a factory announced it)
  pair_id     text NOT NULL,
  -- the contract the transaction called (the router, or the pair itself)
  contract_id text NOT NULL,
  caller_id   text NOT NULL,
  to_id       text NOT NULL,
  amount0_in  numeric NOT NULL,
  amount1_in  numeric NOT NULL,
  amount0_out numeric NOT NULL,
  amount1_out numeric NOT NULL
);
CREATE INDEX dex_swaps_caller ON dex_swaps (caller_id, height, micro_index, tx_index, log_idx);
CREATE INDEX dex_swaps_pair ON dex_swaps (pair_id, height, micro_index, tx_index, log_idx);
CREATE INDEX dex_swaps_position ON dex_swaps (height, micro_index, tx_index, log_idx);
