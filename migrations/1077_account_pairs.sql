-- The transactions from one id to another (the original's /transactions/account/{sender}/to/{receiver}, issue 57): a
-- row per transaction and pair of an id standing in its `sender_id` (or a wrapped transaction's, `tx.sender_id`) and
-- one in its `recipient_id` (or `tx.recipient_id`), as account_transactions holds them (a recipient reached through a
-- name is its pointee's). Without it a page walked every spend of the quieter side and probed the other's row at each
-- position: linear in that side's spends (about 0.3 µs each, 29 ms for two busy accounts at 10 % of mainnet, a third of
-- a second for two mainnet wallets of a million spends each). With it a page reads offset + limit entries of the pair.
-- The writer adds the rows in the batch's transaction (src/indexer/rows/account-pairs.ts), they go with their heights
-- (1005), and `mdw -v` compares them with the join below made again (src/db/queries/derive-check.ts).
CREATE TABLE account_pairs (
  -- the ids' numbers (account_ids)
  sender      integer NOT NULL,
  recipient   integer NOT NULL,
  height      integer NOT NULL,
  micro_index integer NOT NULL,
  tx_index    integer NOT NULL
);

CREATE TRIGGER account_pairs_on_key_blocks_delete AFTER DELETE ON key_blocks
  REFERENCING OLD TABLE AS old_blocks FOR EACH STATEMENT
  EXECUTE FUNCTION cascade_deleted_heights('account_pairs');

-- the pairs of the transactions stored before this migration: one pass over account_transactions, its senders' rows
-- joined to its recipients' at the same position; the indexes built after them, sorted (filled as the rows came, the
-- key's B-tree took 66 bytes a row at 10 % of mainnet, split page after page)
INSERT INTO account_pairs (sender, recipient, height, micro_index, tx_index)
SELECT s.account, r.account, s.height, s.micro_index, s.tx_index
  FROM account_transactions s
  JOIN account_transactions r ON r.height = s.height AND r.micro_index = s.micro_index AND r.tx_index = s.tx_index
 WHERE s.fields ~ '(^| )(sender_id|tx\.sender_id)( |$)' AND r.fields ~ '(^| )(recipient_id|tx\.recipient_id)( |$)';
ALTER TABLE account_pairs ADD PRIMARY KEY (sender, recipient, height, micro_index, tx_index);
CREATE INDEX account_pairs_height ON account_pairs (height);
ANALYZE account_pairs;
