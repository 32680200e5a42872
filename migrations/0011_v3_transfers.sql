-- ae_mdw's internal transfers (/v3/transfers, InternalTransferEvent activities) that follow from the
-- stored chain alone, as a view: a name claim or bid locks its name fee (fee_lock_name), a bid
-- returns the fee of the bid it outbids to that bidder (fee_refund_name), an auction's winning fee
-- is spent when the auction ends (fee_spend_name, a key-block-level item: positions -1), and a
-- response pays the query fee to the oracle's account (reward_oracle). Being a view over rows that
-- carry their heights, it rolls back with them and needs no writer.
-- Not derivable here: block and dev rewards, genesis and hard-fork accounts, expired-query refunds.
-- PostgreSQL 11 compatible.
CREATE VIEW v3_transfers AS
  SELECT e.owner AS account_id, e.name_fee AS amount, e.height, e.micro_index, e.tx_index, 0 AS local_idx,
         'fee_lock_name'::text AS kind, e.tx_hash AS ref_tx_hash
    FROM name_events e
   WHERE e.kind IN ('claim', 'bid') AND e.name_fee IS NOT NULL
  UNION ALL
  SELECT p.owner, p.name_fee, b.height, b.micro_index, b.tx_index, 1, 'fee_refund_name', b.tx_hash
    FROM name_events b
    CROSS JOIN LATERAL (SELECT q.owner, q.name_fee FROM name_events q
                         WHERE q.name_hash = b.name_hash AND q.kind IN ('claim', 'bid')
                           AND (q.height, q.micro_index, q.tx_index) < (b.height, b.micro_index, b.tx_index)
                         ORDER BY q.height DESC, q.micro_index DESC, q.tx_index DESC LIMIT 1) p
   WHERE b.kind = 'bid' AND p.name_fee IS NOT NULL
  UNION ALL
  SELECT w.owner, w.name_fee, w.auction_end, -1, -1, 0, 'fee_spend_name', w.tx_hash
    FROM name_events w
   WHERE w.kind IN ('claim', 'bid') AND w.auction_end IS NOT NULL AND w.name_fee IS NOT NULL
     AND w.auction_end <= (SELECT max(height) FROM key_blocks)
     AND NOT EXISTS (SELECT 1 FROM name_events l WHERE l.name_hash = w.name_hash AND l.kind = 'bid'
                      AND (l.height, l.micro_index, l.tx_index) > (w.height, w.micro_index, w.tx_index)
                      AND l.height < w.auction_end)
  UNION ALL
  SELECT 'ak_' || substr(q.oracle_id, 4), q.fee, r.height, r.micro_index, r.tx_index, 0, 'reward_oracle', r.tx_hash
    FROM oracle_responses r JOIN oracle_queries q ON q.query_id = r.query_id;
