-- Issue 88: /v3/stats' highest tps read from one row, during a catch-up as at the head.
--
-- Its generation was the first of `stats_generations` by (tps DESC, height), which the index stats_generations_tps
-- answered; a catch-up from genesis builds that index at the top only (1140: its upkeep was a tenth of the generations'
-- insert), so until then every /v3/stats read the whole table, a cost growing with the chain. Each generation now keeps
-- the best through it, as it keeps the running totals: the highest tps of the generations up to it and the lowest
-- height holding that tps (best_tps, best_tps_height), and /v3/stats reads the highest generation's. A fork or a
-- reload removes or rewrites rows from some height up and leaves those below right, as with the totals. The same
-- answer as the index's first entry: a tie keeps the lowest height. The index is read by nothing else: dropped, and
-- no longer built at the top.
-- PostgreSQL 11 compatible.
ALTER TABLE stats_generations ADD COLUMN best_tps numeric, ADD COLUMN best_tps_height integer;

-- max over (tps, -height): the highest tps, and of those the lowest height
UPDATE stats_generations g SET best_tps = r.best[1], best_tps_height = -r.best[2]
  FROM (SELECT height, max(ARRAY[tps, -height]) OVER (ORDER BY height) AS best FROM stats_generations) r
 WHERE g.height = r.height;

ALTER TABLE stats_generations ALTER COLUMN best_tps SET NOT NULL, ALTER COLUMN best_tps_height SET NOT NULL;

DROP INDEX IF EXISTS stats_generations_tps;
DELETE FROM deferred_builds WHERE name = 'stats_generations_tps';
