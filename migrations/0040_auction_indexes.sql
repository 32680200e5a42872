-- Indexes for the original middleware's auction endpoints (/middleware/names/auctions/…), read from
-- name_state and name_events; no new data is recorded: a claim that opens an auction and every bid
-- are already name events (kind 'claim' with auction_end, kind 'bid'), with the bidder as owner and
-- the bid as name_fee.
-- PostgreSQL 11 compatible.

-- Running auctions: names whose auction ends at or above the top (a name never auctioned has its claim
-- height here, so the range holds only running auctions).
CREATE INDEX name_state_auction_end ON name_state (auction_end_height);

-- The bids of an account, newest first.
CREATE INDEX name_events_bids_by_owner ON name_events (owner, height DESC, micro_index DESC, tx_index DESC)
  WHERE kind IN ('claim', 'bid') AND auction_end IS NOT NULL;
