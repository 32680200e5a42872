-- Issue 88: a channel's parties' on-chain amounts (initiator_amount, responder_amount), as the node keeps them
-- (aesc_channels): their creation's until a solo close's or slash's proof of inclusion or a force progress's off-chain
-- trees set them; a deposit or withdrawal moves the channel's amount only. /v3/channels showed the creation's always,
-- and `mdw -v` compared neither with the node's. Each channel transaction now carries them with the rest of the state
-- after it (src/chain/channel-state.ts, folded by the writer and the channels area).
ALTER TABLE channel_events ADD COLUMN initiator_amount numeric, ADD COLUMN responder_amount numeric;

-- A deposit or withdrawal wrapped in a PayingForTx or GAMetaTx was stored without its amount, which the channel's
-- `amount` (channel_totals) then lacked; the writer now stores it.
-- The stored rows have no parties' amounts: their states are forgotten and the channels area folds them again from
-- each channel's first transaction (as after 1051; meanwhile /v3/channels shows a null round and the creation's
-- amounts), filling in the wrapped deposits' and withdrawals' amounts and their channels' totals on the way. A fold
-- reads the stored transactions only, and mainnet has few channel transactions. A schema without any is left alone.
UPDATE channel_events SET round = NULL, solo_round = NULL, state_hash = NULL WHERE round IS NOT NULL;

INSERT INTO derive_backfill AS b (area, next_height, to_height)
SELECT 'channels', min(height), (SELECT max(height) FROM key_blocks) FROM channel_events HAVING count(*) > 0
ON CONFLICT (area) DO UPDATE SET next_height = least(b.next_height, excluded.next_height),
                                 to_height = greatest(b.to_height, excluded.to_height);
