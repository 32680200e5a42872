-- Names a contract claims, bids for, updates, transfers or revokes through AENS.* (ae_mdw's events with
-- `internal_source`): the int_calls area (src/indexer/derived/contract-names.ts) writes them into name_events at the
-- calling transaction's position, `local_idx` naming the internal call (contract_internal_calls) whose transaction a
-- name's claims, updates, transfers and history show. Null on the name transactions' own events. A call acting on
-- one name twice (a claim and an update) is one event of that name: the state after the call, the kind of a claim.
ALTER TABLE name_events ADD COLUMN local_idx integer;

-- the AENS calls stored before this migration have no name events yet: their heights are derived again
INSERT INTO derive_backfill (area, next_height, to_height)
SELECT 'int_calls', min(height), max(height) FROM contract_internal_calls WHERE function LIKE 'AENS.%'
HAVING count(*) > 0
ON CONFLICT (area) DO UPDATE
   SET next_height = least(derive_backfill.next_height, excluded.next_height),
       to_height = greatest(derive_backfill.to_height, excluded.to_height);
