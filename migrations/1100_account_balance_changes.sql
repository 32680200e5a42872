-- Every change of an account's AE balance, with its cause (issue 76): what each transaction, internal call (1097) and
-- internal transfer (rewards, name fees and refunds, oracle rewards and refunds, genesis and fork accounts) moved,
-- derived by the `balances` area (src/indexer/derived/balance-changes.ts), with the balance after it. At each batch's
-- end the balance of every account it touched is compared with the node's (account_balances, 1007): a difference is
-- its own row of kind 'unexplained' after the batch's last block, so the balance after every row equals the node's at
-- the batch's end. The balance at a height is the latest row at or before it (one index probe), a history a keyset
-- walk of an account's rows.
CREATE TABLE account_balance_changes (
  account_id  text NOT NULL,
  height      integer NOT NULL,
  -- −1 at key-block level (rewards, fork and genesis accounts, refunds at a key block)
  micro_index integer NOT NULL,
  -- −1 at key-block level; 2147483647 for an 'unexplained' row, after the block it is found at
  tx_index    integer NOT NULL,
  -- the order of an account's changes at one place (a call's own effect, then its internal calls, then transfers)
  seq         smallint NOT NULL,
  -- the transaction type, the internal call's function (Chain.spend, Call.amount), the internal transfer's kind, or
  -- 'unexplained' (what the node's balance differs by)
  kind        text NOT NULL,
  -- the transaction that caused it where that is not the one at its place (a refund's bid, a query's refund): null
  -- for the transaction at its place, read with the row (40 % of the row's bytes), and at key-block level
  tx_hash     text,
  delta       numeric NOT NULL,
  balance     numeric NOT NULL,
  PRIMARY KEY (account_id, height, micro_index, tx_index, seq)
);
-- the height cascade deletes by height
CREATE INDEX account_balance_changes_height ON account_balance_changes (height);

-- the rows go with their heights, as every area's rows (1005)
CREATE TRIGGER account_balance_changes_on_key_blocks_delete AFTER DELETE ON key_blocks
  REFERENCING OLD TABLE AS old_blocks FOR EACH STATEMENT
  EXECUTE FUNCTION cascade_deleted_heights('account_balance_changes');

-- a schema with stored heights derives the changes of all of them (the balances area again, from its first height)
INSERT INTO derive_backfill (area, next_height, to_height)
SELECT 'balances', min(height), max(height) FROM key_blocks HAVING count(*) > 0
ON CONFLICT (area) DO UPDATE SET next_height = EXCLUDED.next_height,
                                 to_height = greatest(derive_backfill.to_height, EXCLUDED.to_height);
