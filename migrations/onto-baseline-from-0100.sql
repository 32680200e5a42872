-- Run once by the migrator when it moves a schema that the files written before 0.1.0 took to
-- 0100_stats_series_counted_intervals onto the baseline (src/db/baseline.ts), before 1005_height_cascade and
-- 1006_function_search_path run on it. Such a schema is the baseline's but for the height cascade, where it has a
-- function of its own per area (the same statements over other tables); they go, and 1005 puts the one shared
-- function and the same four triggers in their place. Functions and triggers only: no row is read or written.
DROP TRIGGER key_blocks_on_delete ON key_blocks;
DROP TRIGGER derived_on_key_blocks_delete ON key_blocks;
DROP TRIGGER aexn_on_key_blocks_delete ON key_blocks;
DROP TRIGGER stats_on_key_blocks_delete ON key_blocks;
DROP FUNCTION key_blocks_after_delete();
DROP FUNCTION derived_after_key_blocks_delete();
DROP FUNCTION aexn_after_key_blocks_delete();
DROP FUNCTION stats_after_key_blocks_delete();
