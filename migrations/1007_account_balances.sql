-- AE balances of accounts, as the node's state has them (/mdw/v3/wealth, /mdw/v3/stats' holders_count). No rule
-- of ours computes a balance: the populator asks the node for the balance of each account a batch of heights touched
-- (named by a transaction, paid by an internal transfer, a party of a closing channel, the locked-coins account of a
-- name fee), in the state after the batch's last block, and stores it at the last height of the batch that touched
-- the account: no block after that height and up to the batch's last one changed it, so the row is the account's
-- balance after its own height too. A row per account and batch, with the height: a fork's rollback deletes the
-- heights it replaces (the cascade below), and the account's latest remaining row is its balance at the new top.
CREATE TABLE account_balances (
  height     integer NOT NULL,
  account_id text NOT NULL,
  balance    numeric NOT NULL,
  PRIMARY KEY (height, account_id)
);
CREATE INDEX account_balances_account ON account_balances (account_id, height);

-- each account's latest row, kept by the triggers below for what each statement touched, so that the ranking reads
-- an index in balance order and the holders (balance above 0) are a count kept beside it
CREATE TABLE account_wealth (
  account_id text NOT NULL,
  balance    numeric NOT NULL,
  PRIMARY KEY (account_id)
);
CREATE INDEX account_wealth_rank ON account_wealth (balance DESC, account_id DESC);

CREATE TABLE account_holders (
  id      boolean DEFAULT true NOT NULL CHECK (id),
  holders bigint NOT NULL,
  PRIMARY KEY (id)
);
INSERT INTO account_holders (id, holders) VALUES (true, 0);

CREATE FUNCTION account_balances_after_rows() RETURNS trigger LANGUAGE plpgsql AS $_$
DECLARE
  changed text := CASE WHEN TG_OP = 'INSERT' THEN 'new_rows' ELSE 'old_rows' END;
  accounts text[];
  before bigint;
BEGIN
  EXECUTE format('SELECT array_agg(DISTINCT account_id) FROM %I', changed) INTO accounts;
  IF accounts IS NULL THEN
    RETURN NULL;
  END IF;
  SELECT count(*) INTO before FROM account_wealth WHERE account_id = ANY (accounts) AND balance > 0;
  DELETE FROM account_wealth WHERE account_id = ANY (accounts);
  INSERT INTO account_wealth (account_id, balance)
  SELECT DISTINCT ON (account_id) account_id, balance
    FROM account_balances
   WHERE account_id = ANY (accounts)
   ORDER BY account_id, height DESC;
  UPDATE account_holders
     SET holders = holders - before
                 + (SELECT count(*) FROM account_wealth WHERE account_id = ANY (accounts) AND balance > 0);
  RETURN NULL;
END
$_$;

CREATE TRIGGER account_balances_on_insert AFTER INSERT ON account_balances
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT
  EXECUTE FUNCTION account_balances_after_rows();
CREATE TRIGGER account_balances_on_delete AFTER DELETE ON account_balances
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT
  EXECUTE FUNCTION account_balances_after_rows();

-- the balances go with their heights, as every area's rows (1005)
CREATE TRIGGER balances_on_key_blocks_delete AFTER DELETE ON key_blocks
  REFERENCING OLD TABLE AS old_blocks FOR EACH STATEMENT
  EXECUTE FUNCTION cascade_deleted_heights('account_balances');

-- the new function reads this schema's tables whatever the caller's search_path (1006)
DO $$
BEGIN
  EXECUTE format('ALTER FUNCTION account_balances_after_rows() SET search_path = %I', current_schema());
END
$$;

-- a schema with stored heights derives the balances of all of them (the populator's backfill, asking the node)
INSERT INTO derive_backfill (area, next_height, to_height)
SELECT 'balances', min(height), max(height) FROM key_blocks HAVING count(*) > 0;
