-- The miners' rows of stats_intervals in the intervals' order (/mdw/v3/stats/miners/top, issue 57): its primary key
-- leads with the series, one per miner, so a page read every miner row of the whole range (every day of the chain by
-- default) and sorted them for 100 items; that grows with days × miners. A page now reads the rows of the n + 1
-- intervals nearest its cursor (each interval with a key block holds a miner row), found in this partial index.
-- stats_intervals is small (a row per series and interval): built in the migration's transaction.
CREATE INDEX stats_intervals_miners_by_start ON stats_intervals (interval_by, start) WHERE series LIKE 'miner:%';
