-- Issue 88: the locked-coins account (ak_11111111111111111111111111111111273Yts) as the node credits it.
-- 1. The node locks an auction's winning bid at the key block after the auction's end, when its prune of the names
--    tree (aens_state_tree:prune with the height − 1, run_elapsed_name_auction) hands the name to the winner: a bid is
--    still taken in the generation of the auction's end. The transfers area wrote that `fee_lock_name` one height
--    early, at the key block of the auction's end.
-- 2. The node locks what a mutual close's final amounts and fee (or a settle's final amounts) leave in the channel
--    (aeprimop channel_close_mutual, channel_settle); the balances area locked nothing of it.
-- The internal transfers and the balances derive again from the first auction's end or channel close, whichever is
-- first, to the top (the populator's backfill: the transfers first, then the balances, in DERIVED_AREAS' order). A
-- schema with neither is left alone.
INSERT INTO derive_backfill (area, next_height, to_height)
SELECT area, first.height, (SELECT max(height) FROM key_blocks)
  FROM (SELECT least((SELECT min(auction_end) FROM name_events
                       WHERE local_idx IS NULL AND auction_end IS NOT NULL AND kind IN ('claim', 'bid')),
                     -- channel_events holds channels' transactions only, wrapped ones included: a scan
                     (SELECT min(height) FROM channel_events WHERE closes)) AS height) first
 CROSS JOIN (VALUES ('transfers'), ('balances')) areas(area)
 WHERE first.height IS NOT NULL AND first.height <= (SELECT max(height) FROM key_blocks)
ON CONFLICT (area) DO UPDATE SET next_height = least(derive_backfill.next_height, EXCLUDED.next_height),
                                 to_height = greatest(derive_backfill.to_height, EXCLUDED.to_height);

-- 3. A PayingForTx paying for a generalized account's transaction: the ga area stored no GA call of it (its gas was an
--    `unexplained` change), and the node charges the payer the inner transaction's fee and gas too (the payer carries
--    into the GA's context), where the balances charged the GA. The ga area and the areas reading it derive again from
--    the first such transaction (a walk of the PayingForTx by transactions_type, as 1141's).
INSERT INTO derive_backfill (area, next_height, to_height)
SELECT area, first.height, (SELECT max(height) FROM key_blocks)
  FROM (SELECT min(height) AS height FROM transactions
         WHERE tx_type = 82 AND inner_type IN ('GAAttachTx', 'GAMetaTx')) first
 CROSS JOIN (VALUES ('ga'), ('transfers'), ('stats'), ('balances')) areas(area)
 WHERE first.height IS NOT NULL AND first.height <= (SELECT max(height) FROM key_blocks)
ON CONFLICT (area) DO UPDATE SET next_height = least(derive_backfill.next_height, EXCLUDED.next_height),
                                 to_height = greatest(derive_backfill.to_height, EXCLUDED.to_height);
