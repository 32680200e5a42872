-- Issue 88: a ChannelForceProgressTx runs its off-chain contract call on chain: its sender (a PayingForTx's payer)
-- pays the fee and the gas the call used at the update's gas price, and the call object it leaves counts in the
-- generation's fees (aesc_utils:process_force_progress, add_call, calculate_gas_fee). The node tells that gas in the
-- transaction's info only, which a sync asks now and stores in the force progress's channel event (gas_used; null:
-- no node held the info, or another type). Heights stored before have none: their fees (generation_fees, the rewards
-- paid from them 180 generations later on mainnet), the statistics and balances those reach, and the payers' balance
-- changes (the gap stored as an 'unexplained' change) derive again from the first force progress to the top (the
-- populator's backfill): the ga area first, which asks the node the infos of the range's force progresses (and of its
-- GA transactions, as it always does), then the transfers, the statistics and the balances (DERIVED_AREAS' order). A
-- schema with no force progress is left alone.
ALTER TABLE channel_events ADD COLUMN gas_used numeric;

INSERT INTO derive_backfill (area, next_height, to_height)
SELECT area, first.height, (SELECT max(height) FROM key_blocks)
  -- channel_events holds channels' transactions only, wrapped ones included: a scan
  FROM (SELECT min(height) AS height FROM channel_events WHERE tx_type = 'ChannelForceProgressTx') first
 CROSS JOIN (VALUES ('ga'), ('transfers'), ('stats'), ('balances')) areas(area)
 WHERE first.height IS NOT NULL
ON CONFLICT (area) DO UPDATE SET next_height = least(derive_backfill.next_height, EXCLUDED.next_height),
                                 to_height = greatest(derive_backfill.to_height, EXCLUDED.to_height);
