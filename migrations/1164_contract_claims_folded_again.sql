-- A schema stored by a build before the names' fold (namefold) and the contracts' bids (namebids) keeps their errors:
-- a NameClaimTx bidding in an auction a contract's AENS.claim opened was stored as a claim of its own (its auction's
-- end, the name's expiry, its claims, the statistics wrong), and a contract's bids had no fee_refund_name nor
-- fee_lock_name (its balance's changes an 'unexplained' row instead). From the first height where a contract's
-- AENS.claim acted on a name to the top: the `names` area folds the names the stored AENS calls act on again (no
-- node asked, no call replayed: src/indexer/derived/internal-calls.ts foldStoredContractNames), then the transfers,
-- the statistics and the balances derive again (the balances ask the node for the accounts' balances, as their
-- derivation always does). A chain without such a call queues nothing: one probe of contract_internal_calls_function.
-- PostgreSQL 11 compatible.
INSERT INTO derive_backfill (area, next_height, to_height)
SELECT area, first.height, (SELECT max(height) FROM key_blocks)
  FROM (SELECT min(height) AS height FROM contract_internal_calls WHERE function = 'AENS.claim') first
 CROSS JOIN (VALUES ('names'), ('transfers'), ('stats'), ('balances')) areas(area)
 WHERE first.height IS NOT NULL AND first.height <= (SELECT max(height) FROM key_blocks)
ON CONFLICT (area) DO UPDATE SET next_height = least(derive_backfill.next_height, EXCLUDED.next_height),
                                 to_height = greatest(derive_backfill.to_height, EXCLUDED.to_height);
