-- Statistics from the internal transfers (0012) rather than from the key block alone:
--   * a key block's rewards go to the accounts its reward_block transfers name (under the node's rules
--     the beneficiaries of generations paid for 180 generations earlier, not its own), so miners'
--     totals (/v3/stats/miners) come from a per-height table of those rewards, kept like the others;
--   * the token supply counts what genesis and hard forks created (accounts_*, contracts_* transfers,
--     ae_mdw's token supply delta) beside the rewards: `minted` per generation and its running sum.
-- Top miners (/v3/stats/miners/top, series `miner:<ak_>`) count the rewarded accounts too; the
-- populator's derivation writes them. Stored heights get theirs from the backfill (0080).
-- PostgreSQL 11 compatible.

CREATE TABLE stats_miner_rewards (
  height integer NOT NULL,
  miner  text    NOT NULL,
  reward numeric NOT NULL,
  PRIMARY KEY (height, miner)
);

DROP TRIGGER stats_generations_on_insert ON stats_generations;
DROP TRIGGER stats_generations_on_delete ON stats_generations;
DROP FUNCTION stats_generations_after();
TRUNCATE stats_miners;

CREATE FUNCTION stats_miner_rewards_after() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM stats_miners_add(array_agg(miner), array_agg(reward)) FROM new_rows;
  ELSE
    PERFORM stats_miners_add(array_agg(miner), array_agg(-reward)) FROM old_rows;
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER stats_miner_rewards_on_insert AFTER INSERT ON stats_miner_rewards
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE PROCEDURE stats_miner_rewards_after();
CREATE TRIGGER stats_miner_rewards_on_delete AFTER DELETE ON stats_miner_rewards
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE PROCEDURE stats_miner_rewards_after();

ALTER TABLE stats_generations
  ADD COLUMN minted     numeric NOT NULL DEFAULT 0,
  ADD COLUMN sum_minted numeric NOT NULL DEFAULT 0;

CREATE OR REPLACE FUNCTION stats_after_key_blocks_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM stats_generations     WHERE height IN (SELECT height FROM old_blocks);
  DELETE FROM stats_series_counts   WHERE height IN (SELECT height FROM old_blocks);
  DELETE FROM stats_accounts        WHERE height IN (SELECT height FROM old_blocks);
  DELETE FROM stats_active_accounts WHERE height IN (SELECT height FROM old_blocks);
  DELETE FROM stats_miner_rewards   WHERE height IN (SELECT height FROM old_blocks);
  RETURN NULL;
END
$$;

-- A month is computed per distinct day of a statement's rows, from an expression PostgreSQL inlines
-- (a function with its own search_path is never inlined: a call each, a third of a batch's derivation).
ALTER FUNCTION stats_month_of(integer) RESET search_path;
CREATE OR REPLACE FUNCTION stats_month_of(day integer) RETURNS integer LANGUAGE sql IMMUTABLE AS $$
  SELECT ((extract(year FROM date '1970-01-01' + day) - 1970) * 12
          + extract(month FROM date '1970-01-01' + day) - 1)::integer;
$$;
CREATE OR REPLACE FUNCTION stats_intervals_add(series text[], days integer[], counts numeric[]) RETURNS void LANGUAGE sql AS $$
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
$$;
-- the intervals a statement brought to zero are found by this index, not by reading them all
CREATE INDEX stats_intervals_zero ON stats_intervals (series) WHERE count = 0;

DO $$
BEGIN
  EXECUTE format('ALTER FUNCTION stats_intervals_add(text[], integer[], numeric[]) SET search_path = %I', current_schema());
  EXECUTE format('ALTER FUNCTION stats_miner_rewards_after() SET search_path = %I', current_schema());
  EXECUTE format('ALTER FUNCTION stats_after_key_blocks_delete() SET search_path = %I', current_schema());
END
$$;
