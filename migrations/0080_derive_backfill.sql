-- derive_backfill: the derived areas whose rows some stored heights lack, because the heights were
-- stored before the area's tables existed (or before its rules changed). The populator derives them
-- from the rows already stored, in ascending batches of heights, each batch in one transaction that
-- also moves next_height, so a kill mid-way resumes where the last commit left it; the row goes when
-- the area reaches to_height. The chain is never fetched again for it (src/indexer/derive-backfill.ts,
-- docs/operations.md "Upgrades").
--   transfers: generation_fees and internal_transfers (rewards by the chain's rules, genesis accounts,
--              name fees, oracle rewards and refunds) of heights stored before 0012;
--   stats:     the statistics (0070, 0071), which read the internal transfers: derived after them.
-- A migration that adds a derived table inserts its area's row here for the heights stored then.
-- PostgreSQL 11 compatible.

CREATE TABLE derive_backfill (
  area        text    PRIMARY KEY,
  -- the lowest stored height whose rows of the area are still to derive
  next_height integer NOT NULL,
  -- derive through this height: the top stored when the need was recorded (heights written later
  -- derive in their batch)
  to_height   integer NOT NULL
);

-- Heights stored before 0012 have no generation_fees row (the populator writes one for every height).
INSERT INTO derive_backfill (area, next_height, to_height)
SELECT 'transfers', min(k.height), (SELECT max(height) FROM key_blocks)
  FROM key_blocks k
 WHERE NOT EXISTS (SELECT 1 FROM generation_fees f WHERE f.height = k.height)
HAVING min(k.height) IS NOT NULL;

-- The first releases of 0070 and 0071 ended by setting sync_state.rederive_from to 0, which makes the
-- populator reload every stored height from the node (a full resync); they set it only where heights
-- were stored. Their edited versions do not, so a mark seen by this migration came from them only
-- when they ran in an earlier migration run than this one (all the migrations of one run share one
-- transaction, so their applied_at is this transaction's now()). Heights below such a mark were
-- reloaded by the new code and are right; those from the mark up are derived by the backfill instead.
-- (A mark a -H gap fill set after them is merged with theirs by least() and cannot be told apart: it
-- is cleared with it. Such a database's name and oracle state above the gap is fixed by `mdw -H`.)
CREATE TEMPORARY TABLE stats_mark_cleared ON COMMIT DROP AS
SELECT rederive_from AS height FROM sync_state
 WHERE rederive_from IS NOT NULL
   AND EXISTS (SELECT 1 FROM mdw_migrations
                WHERE name IN ('0070_stats', '0071_stats_miner_rewards') AND applied_at < now());
UPDATE sync_state SET rederive_from = NULL WHERE EXISTS (SELECT 1 FROM stats_mark_cleared);

-- Statistics: from the lowest stored height without its generation's row, from a cleared mark, and
-- from the lowest height whose transfers (their miners' rewards and supply) are still to derive.
INSERT INTO derive_backfill (area, next_height, to_height)
SELECT 'stats', min(h), (SELECT max(height) FROM key_blocks)
  FROM (SELECT min(k.height) AS h FROM key_blocks k
         WHERE NOT EXISTS (SELECT 1 FROM stats_generations s WHERE s.height = k.height)
        UNION ALL SELECT height FROM stats_mark_cleared
        UNION ALL SELECT next_height FROM derive_backfill WHERE area = 'transfers') f
HAVING min(h) IS NOT NULL AND EXISTS (SELECT 1 FROM key_blocks);
