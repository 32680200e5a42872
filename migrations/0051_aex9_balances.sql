-- AEX-9 balances as ae_mdw keeps them: seeded at a token's creation by a dry-run of `balances()` at its creation
-- block, then moved by the standard events (Transfer, Mint, Burn, Swap; wrapped AE's Deposit and Withdrawal)
-- emitted after that block. aex9_events holds one signed amount per account an event moves, keyed by position,
-- so every path that deletes heights (fork rollback, -H reload: the key_blocks trigger below) takes exactly the
-- moves of those heights away. aex9_balances (one row per holder) and aex9_contract_state (holders, supplies) are
-- kept by statement-level triggers over aex9_events in the same transaction, as name_state is (0002): adding or
-- removing events adds or subtracts their amounts, so the state always equals the sum of the stored events.
-- Amounts are numeric: exact at any size. PostgreSQL 11 compatible.

CREATE TABLE aex9_events (
  contract_id text     NOT NULL,
  -- C collation: holders list in the order of their public keys, as ae_mdw's (base58 of a fixed-size key
  -- sorts bytewise as the key does)
  account     text     COLLATE "C" NOT NULL,
  height      integer  NOT NULL,
  micro_index integer  NOT NULL,
  tx_index    integer  NOT NULL,
  -- the event's index in its call's log (emission order); -1 for the balance at creation
  log_idx     integer  NOT NULL,
  -- 0: the account the event takes from, 1: the one it gives to (a transfer to oneself moves both)
  side        smallint NOT NULL,
  tx_hash     text     NOT NULL,
  -- seed (the balance at creation), transfer, mint, burn, swap, deposit, withdrawal
  kind        text     NOT NULL,
  delta       numeric  NOT NULL,
  PRIMARY KEY (contract_id, account, height, micro_index, tx_index, log_idx, side)
);
CREATE INDEX aex9_events_height ON aex9_events (height);

-- The Transfer events of AEX-9 contracts (ae_mdw's aex9 transfers lists).
CREATE TABLE aex9_transfers (
  contract_id text    NOT NULL,
  sender      text    NOT NULL,
  recipient   text    NOT NULL,
  amount      numeric NOT NULL,
  height      integer NOT NULL,
  micro_index integer NOT NULL,
  tx_index    integer NOT NULL,
  log_idx     integer NOT NULL,
  tx_hash     text    NOT NULL,
  PRIMARY KEY (contract_id, height, micro_index, tx_index, log_idx)
);
CREATE INDEX aex9_transfers_sender ON aex9_transfers (sender, height, micro_index, tx_index, log_idx);
CREATE INDEX aex9_transfers_recipient ON aex9_transfers (recipient, height, micro_index, tx_index, log_idx);
CREATE INDEX aex9_transfers_height ON aex9_transfers (height);

-- Every account an AEX-9 contract's events ever moved, with its balance and its latest event.
CREATE TABLE aex9_balances (
  contract_id text    NOT NULL,
  account     text    COLLATE "C" NOT NULL,
  amount      numeric NOT NULL,
  height      integer NOT NULL,
  micro_index integer NOT NULL,
  tx_index    integer NOT NULL,
  log_idx     integer NOT NULL,
  tx_hash     text    NOT NULL,
  PRIMARY KEY (contract_id, account)
);
-- holders pages by key (the primary key) and by amount; an account's tokens
CREATE INDEX aex9_balances_amount ON aex9_balances (contract_id, amount, account) WHERE amount > 0;
CREATE INDEX aex9_balances_account ON aex9_balances (account, contract_id);

CREATE TABLE aex9_contract_state (
  contract_id    text    PRIMARY KEY,
  -- accounts with a positive balance
  holders        integer NOT NULL,
  -- the balances at creation, and what events minted less what they burned since
  initial_supply numeric NOT NULL,
  event_supply   numeric NOT NULL,
  -- balance-moving events (a transfer counts once)
  events_count   integer NOT NULL
);

-- aex9_apply adds (sign 1) or takes away (sign -1) the moves of a statement's events: in the balances of their
-- accounts (whose latest event is looked up again), the holders count and the supplies of their contracts.
CREATE FUNCTION aex9_apply(changed jsonb, sign integer) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  WITH moves AS (
    SELECT e.contract_id, e.account, sign * sum(e.delta) AS delta
      FROM jsonb_to_recordset(changed) AS e(contract_id text, account text, delta numeric)
     GROUP BY e.contract_id, e.account),
  before AS (
    SELECT m.contract_id, m.account, m.delta, coalesce(b.amount, 0) AS amount
      FROM moves m LEFT JOIN aex9_balances b ON b.contract_id = m.contract_id AND b.account = m.account),
  holders AS (
    SELECT contract_id, sum((amount + delta > 0)::int - (amount > 0)::int) AS diff FROM before GROUP BY contract_id),
  supply AS (
    SELECT e.contract_id,
           sign * sum(e.delta) FILTER (WHERE e.kind = 'seed') AS initial,
           sign * sum(e.delta) FILTER (WHERE e.kind NOT IN ('seed', 'transfer')) AS minted,
           sign * count(*) FILTER (WHERE e.kind <> 'seed' AND (e.side = 1 OR e.kind <> 'transfer')) AS events
      FROM jsonb_to_recordset(changed) AS e(contract_id text, kind text, side int, delta numeric)
     GROUP BY e.contract_id)
  INSERT INTO aex9_contract_state AS s (contract_id, holders, initial_supply, event_supply, events_count)
  SELECT s.contract_id, coalesce(h.diff, 0), coalesce(s.initial, 0), coalesce(s.minted, 0), s.events
    FROM supply s LEFT JOIN holders h USING (contract_id)
  ON CONFLICT (contract_id) DO UPDATE
     SET holders = s.holders + EXCLUDED.holders,
         initial_supply = s.initial_supply + EXCLUDED.initial_supply,
         event_supply = s.event_supply + EXCLUDED.event_supply,
         events_count = s.events_count + EXCLUDED.events_count;

  WITH moves AS (
    SELECT e.contract_id, e.account, sign * sum(e.delta) AS delta
      FROM jsonb_to_recordset(changed) AS e(contract_id text, account text, delta numeric)
     GROUP BY e.contract_id, e.account)
  INSERT INTO aex9_balances AS b (contract_id, account, amount, height, micro_index, tx_index, log_idx, tx_hash)
  SELECT m.contract_id, m.account, coalesce(o.amount, 0) + m.delta,
         l.height, l.micro_index, l.tx_index, l.log_idx, l.tx_hash
    FROM moves m
    LEFT JOIN aex9_balances o ON o.contract_id = m.contract_id AND o.account = m.account
    CROSS JOIN LATERAL (
      SELECT height, micro_index, tx_index, log_idx, tx_hash FROM aex9_events e
       WHERE e.contract_id = m.contract_id AND e.account = m.account
       ORDER BY height DESC, micro_index DESC, tx_index DESC, log_idx DESC, side DESC LIMIT 1) l
  ON CONFLICT (contract_id, account) DO UPDATE
     SET amount = EXCLUDED.amount, height = EXCLUDED.height, micro_index = EXCLUDED.micro_index,
         tx_index = EXCLUDED.tx_index, log_idx = EXCLUDED.log_idx, tx_hash = EXCLUDED.tx_hash;

  -- accounts left without any event are no longer listed, nor contracts without any
  DELETE FROM aex9_balances b
   USING (SELECT DISTINCT e.contract_id, e.account
            FROM jsonb_to_recordset(changed) AS e(contract_id text, account text)) m
   WHERE b.contract_id = m.contract_id AND b.account = m.account
     AND NOT EXISTS (SELECT 1 FROM aex9_events e WHERE e.contract_id = m.contract_id AND e.account = m.account);
  DELETE FROM aex9_contract_state s
   WHERE s.contract_id IN (SELECT DISTINCT e.contract_id FROM jsonb_to_recordset(changed) AS e(contract_id text))
     AND NOT EXISTS (SELECT 1 FROM aex9_events e WHERE e.contract_id = s.contract_id);
END
$$;

CREATE FUNCTION aex9_after_events() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM aex9_apply((SELECT coalesce(jsonb_agg(to_jsonb(n)), '[]') FROM new_events n), 1);
  ELSE
    PERFORM aex9_apply((SELECT coalesce(jsonb_agg(to_jsonb(o)), '[]') FROM old_events o), -1);
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER aex9_on_insert AFTER INSERT ON aex9_events
  REFERENCING NEW TABLE AS new_events FOR EACH STATEMENT EXECUTE PROCEDURE aex9_after_events();
CREATE TRIGGER aex9_on_delete AFTER DELETE ON aex9_events
  REFERENCING OLD TABLE AS old_events FOR EACH STATEMENT EXECUTE PROCEDURE aex9_after_events();
-- events are never updated: an update would bypass the sums
CREATE FUNCTION aex9_refuse_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'aex9_events rows are only inserted and deleted';
END
$$;
CREATE TRIGGER aex9_no_update BEFORE UPDATE OR TRUNCATE ON aex9_events
  FOR EACH STATEMENT EXECUTE PROCEDURE aex9_refuse_update();

CREATE OR REPLACE FUNCTION aexn_after_key_blocks_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM aexn_contracts    WHERE height IN (SELECT height FROM old_blocks);
  DELETE FROM aexn_call_created WHERE height IN (SELECT height FROM old_blocks);
  DELETE FROM aex9_events       WHERE height IN (SELECT height FROM old_blocks);
  DELETE FROM aex9_transfers    WHERE height IN (SELECT height FROM old_blocks);
  RETURN NULL;
END
$$;

DO $$
BEGIN
  EXECUTE format('ALTER FUNCTION aex9_apply(jsonb, integer) SET search_path = %I', current_schema());
  EXECUTE format('ALTER FUNCTION aex9_after_events() SET search_path = %I', current_schema());
  EXECUTE format('ALTER FUNCTION aexn_after_key_blocks_delete() SET search_path = %I', current_schema());
END
$$;
