-- The token area (0050 AEX-N contracts, 0051 AEX-9 events, 0060 DEX pairs and swaps, 0061 AEX-141 events) of the
-- heights stored before those tables existed: until now such heights never got token rows (and the contracts
-- created there were taken as known, so their later events were dropped too). The populator's backfill (0080)
-- derives them from the stored transactions and call infos, asking the node only for what no stored row holds: the
-- code of a contract created inside a call, and one dry-run of each token contract's meta info at its creation.
-- Heights stored before the newest of those migrations are the key blocks whose rows are older than its
-- mdw_migrations row (age() of xmin compares transaction ids across wraparound; a height reloaded since is younger
-- and was derived whole). A dump restored with pg_restore gives every row a new xmin, so the order then tells
-- nothing: the area may be derived again needlessly (the same rows), or, restored before this migration from a
-- database that lacked token rows, not at all (docs/operations.md says how to ask for it). The statistics, which
-- count AEX-9 transfers, are derived again from the same height.
-- PostgreSQL 11 compatible.

CREATE TEMPORARY TABLE tokens_missing ON COMMIT DROP AS
SELECT min(k.height) AS from_height, (SELECT max(height) FROM key_blocks) AS to_height
  FROM key_blocks k
 WHERE age(k.xmin) > (SELECT min(age(m.xmin)) FROM mdw_migrations m
                       WHERE m.name IN ('0050_aexn_contracts', '0051_aex9_balances', '0060_dex', '0061_aex141'));

INSERT INTO derive_backfill AS b (area, next_height, to_height)
SELECT area, from_height, to_height FROM tokens_missing, (VALUES ('tokens'), ('stats')) a(area)
 WHERE from_height IS NOT NULL
ON CONFLICT (area) DO UPDATE SET next_height = least(b.next_height, excluded.next_height),
                                 to_height = greatest(b.to_height, excluded.to_height);
