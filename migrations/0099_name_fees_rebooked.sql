-- Name fees as ae_mdw books them (since f1fcc78, session 5): a claim without an auction locks its fee, a claim or bid
-- in an auction spends it, a bid refunds the outbid fee referring to the outbid claim, an auction's end locks the
-- winning fee. A database whose transfers were derived before kept the old booking (a lock at every claim or bid, a
-- spend at the auction's end, no lock for a claim without a fee), which `mdw -v` reports as differences. The
-- transfers of the heights from its first claim or bid that lacks its booking row are derived again by the backfill
-- (0080: it deletes a batch's internal transfers and derives them from the stored rows, no block fetched), and the
-- statistics, which count them, from the same height. A database derived by the current rules records nothing.
-- PostgreSQL 11 compatible.

CREATE TEMPORARY TABLE name_fees_missing ON COMMIT DROP AS
SELECT min(e.height) AS from_height, (SELECT max(height) FROM key_blocks) AS to_height
  FROM name_events e
 WHERE e.kind IN ('claim', 'bid')
   AND ((e.kind = 'claim' AND e.auction_end IS NULL) OR (e.auction_end IS NOT NULL AND e.name_fee IS NOT NULL))
   AND NOT EXISTS (SELECT 1 FROM internal_transfers t
                    WHERE (t.height, t.micro_index, t.tx_index) = (e.height, e.micro_index, e.tx_index)
                      AND t.kind = CASE WHEN e.auction_end IS NULL THEN 'fee_lock_name' ELSE 'fee_spend_name' END)
   -- heights whose transfers a backfill derives anyway have no rows yet
   AND NOT EXISTS (SELECT 1 FROM derive_backfill b
                    WHERE b.area = 'transfers' AND e.height BETWEEN b.next_height AND b.to_height);

INSERT INTO derive_backfill AS b (area, next_height, to_height)
SELECT area, from_height, to_height FROM name_fees_missing, (VALUES ('transfers'), ('stats')) a(area)
 WHERE from_height IS NOT NULL
ON CONFLICT (area) DO UPDATE SET next_height = least(b.next_height, excluded.next_height),
                                 to_height = greatest(b.to_height, excluded.to_height);
