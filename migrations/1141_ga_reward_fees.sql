-- Issue 89 item 9: a generation's fees (generation_fees, the part of the block reward its miners share) count each
-- GAAttachTx's init gas and each GAMetaTx's authentication gas, and no GAMetaTx's failed inner transaction's fee; and a
-- GAMetaTx whose inner transaction failed moves its fee and authentication gas only in account_balance_changes. Heights
-- stored before keep the old sums, the rewards paid from them (180 generations later on mainnet) and the balances and
-- statistics those rewards reach: the transfers area (generation_fees, internal_transfers) and the areas that read it
-- (stats, balances) derive again from the first generation holding a generalized account's transaction to the top
-- (the populator's backfill; the balances ask the node). A schema with no such transaction is left alone. The
-- backfill derives the ga area (ga_calls, which the transfers read) first (DERIVED_AREAS' order).
INSERT INTO derive_backfill (area, next_height, to_height)
SELECT area, first.height, (SELECT max(height) FROM key_blocks)
  -- by transactions_type (tx_type, height): the first two its first row, the third a walk of the PayingForTx
  FROM (SELECT least((SELECT min(height) FROM transactions WHERE tx_type = 80),
                     (SELECT min(height) FROM transactions WHERE tx_type = 81),
                     (SELECT min(height) FROM transactions
                       WHERE tx_type = 82 AND inner_type IN ('GAAttachTx', 'GAMetaTx'))) AS height) first
 CROSS JOIN (VALUES ('transfers'), ('stats'), ('balances')) areas(area)
 WHERE first.height IS NOT NULL
ON CONFLICT (area) DO UPDATE SET next_height = least(derive_backfill.next_height, EXCLUDED.next_height),
                                 to_height = greatest(derive_backfill.to_height, EXCLUDED.to_height);
