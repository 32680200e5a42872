-- AEX-9 balances that the events cannot explain (issue 58). PostgreSQL 11 compatible, like every migration.

-- A wrapped AE is known by its code (src/indexer/contracts/aexn-detect.ts: AEX-9 with `deposit()` and
-- `withdraw(int)`), or named by DEX_WRAPPED_AE: only its Deposit and Withdrawal events mint and burn.
ALTER TABLE aexn_contracts ADD COLUMN wrapped_ae boolean DEFAULT false NOT NULL;

-- Each time an AEX-9 token's balances were read from the contract's state (a dry-run of `balances()` after the
-- block of the transaction named here) because its events took a balance or its supply below zero: the first row
-- marks the token invalid (ae_mdw's `invalid` / `invalid_reason`; not for `creation_unknown`), and from then on every
-- batch that touches it reads it again. The read's differences from the summed events are aex9_events rows of kind `state` at the same
-- transaction (log_idx 2147483647, after its events), so the balances' triggers keep them; both go with their height.
CREATE TABLE aex9_state_reads (
  contract_id text NOT NULL,
  height      integer NOT NULL,
  micro_index integer NOT NULL,
  tx_index    integer NOT NULL,
  tx_hash     text NOT NULL,
  -- negative_balance, negative_supply (what the events would have made of the token), creation_unknown (the same, for
  -- a token whose balances at creation could not be read, which explains it: not marked invalid), or, at the reads
  -- after the first, touched
  reason      text NOT NULL,
  -- the node kept no state at that block: the negative balances were set to zero instead
  state_unknown boolean DEFAULT false NOT NULL,
  PRIMARY KEY (contract_id, height, micro_index, tx_index)
);
CREATE INDEX aex9_state_reads_height ON aex9_state_reads (height);

CREATE TRIGGER aex9_state_on_key_blocks_delete AFTER DELETE ON key_blocks
  REFERENCING OLD TABLE AS old_blocks FOR EACH STATEMENT
  EXECUTE FUNCTION cascade_deleted_heights('aex9_state_reads');

-- 1002's trigger of aex9_events, but that a state read is no event: logs_count counts the balance-moving events only,
-- while the supplies take the read's differences (initial_supply + event_supply is the sum of the balances)
CREATE OR REPLACE FUNCTION aex9_after_events() RETURNS trigger LANGUAGE plpgsql AS $_$
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
             $1 * count(*) FILTER (WHERE kind NOT IN ('seed', 'state') AND (side = 1 OR kind <> 'transfer')) AS events
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

-- the replaced function reads this schema's tables whatever the caller's search_path (1006)
DO $$
BEGIN
  EXECUTE format('ALTER FUNCTION aex9_after_events() SET search_path = %I', current_schema());
END
$$;

-- a schema with AEX-9 tokens derives its token area again from the first one's height (the populator's backfill,
-- asking the node for the code and meta info of each contract again): wrapped AE found by code, and balances the
-- events took below zero read from the contracts' state
INSERT INTO derive_backfill AS b (area, next_height, to_height)
SELECT 'tokens', min(c.height), (SELECT max(height) FROM key_blocks) FROM aexn_contracts c
 WHERE c.aexn_type = 'aex9' HAVING count(*) > 0
ON CONFLICT (area) DO UPDATE SET next_height = least(b.next_height, excluded.next_height),
                                 to_height = greatest(b.to_height, excluded.to_height);
