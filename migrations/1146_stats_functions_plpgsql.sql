-- Issue 88: the statistics' adders keep their plans (bench/postgres-instructions.ts).
--
-- stats_intervals_add and stats_miners_add (1004) were SQL functions: PostgreSQL plans a SQL function's statements
-- again at every call, and they are called by every batch (the series statement, the accounts' and miners' triggers):
-- about 5 M instructions of planning a batch for the intervals alone. plpgsql keeps the plans for the session. Same
-- statements, same rows: a column still wins over a parameter of the same name, as in the SQL functions.
-- PostgreSQL 11 compatible.
CREATE OR REPLACE FUNCTION stats_intervals_add(series text[], days integer[], counts numeric[]) RETURNS void
LANGUAGE plpgsql AS $$
#variable_conflict use_column
BEGIN
  WITH c AS (SELECT series, day, sum(count) AS count FROM unnest(series, days, counts) AS c(series, day, count)
              GROUP BY 1, 2),
  m AS (SELECT day, stats_month_of(day) AS month FROM (SELECT DISTINCT day FROM c) d),
  i AS (
    SELECT series, 'day'::text AS interval_by, day AS start, count FROM c
    UNION ALL SELECT series, 'week', day / 7, count FROM c
    UNION ALL SELECT c.series, 'month', m.month, c.count FROM c JOIN m USING (day)),
  s AS (SELECT series, interval_by, start, sum(count) AS count FROM i GROUP BY 1, 2, 3 HAVING sum(count) <> 0)
  INSERT INTO stats_intervals AS t (series, interval_by, start, count) SELECT * FROM s ORDER BY 1, 2, 3
  ON CONFLICT (series, interval_by, start) DO UPDATE SET count = t.count + excluded.count;
  DELETE FROM stats_intervals WHERE count = 0;
END
$$;

CREATE OR REPLACE FUNCTION stats_miners_add(miners text[], rewards numeric[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  WITH s AS (SELECT miner, sum(reward) AS reward FROM unnest(miners, rewards) AS r(miner, reward)
              GROUP BY 1 HAVING sum(reward) <> 0)
  INSERT INTO stats_miners AS t (miner, total_reward) SELECT * FROM s ORDER BY 1
  ON CONFLICT (miner) DO UPDATE SET total_reward = t.total_reward + excluded.total_reward;
  DELETE FROM stats_miners WHERE total_reward = 0;
END
$$;
