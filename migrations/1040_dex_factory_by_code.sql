-- A DEX factory known by its code (issue 58), as AEX-9, AEX-141 and wrapped AE are: a contract whose code has
-- dex-contracts-v2's factory functions (src/indexer/contracts/aexn-detect.ts: all_pairs_length, get_all_pairs,
-- get_pair and create_pair) is one on any network, and /v3/dex lists its pairs' swaps with DEX_FACTORY unset;
-- DEX_FACTORY names one more, an override applied when reading. PostgreSQL 11 compatible, like every migration.
ALTER TABLE dex_pairs ADD COLUMN factory_by_code boolean DEFAULT false NOT NULL;

-- a schema with DEX pairs derives its token area again from the first pair's height (the populator's backfill,
-- asking the node for the announcers' code), so that the pairs of factories found by their code are marked
INSERT INTO derive_backfill AS b (area, next_height, to_height)
SELECT 'tokens', min(p.height), (SELECT max(height) FROM key_blocks) FROM dex_pairs p HAVING count(*) > 0
ON CONFLICT (area) DO UPDATE SET next_height = least(b.next_height, excluded.next_height),
                                 to_height = greatest(b.to_height, excluded.to_height);
