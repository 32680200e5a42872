-- 0.1.0 baseline: ae_mdw's statistics (/v3/stats/*). Per height (rolled back with it): stats_generations (what
-- happened in a generation and the running totals), stats_series_counts (what it adds to each series per UTC day),
-- stats_accounts (each account's first appearance), stats_active_accounts (first activity per day, week, month),
-- stats_miner_rewards. Kept from them by statement triggers in the same transaction: stats_intervals (each
-- series' count per day, week and month, what the time series read) and stats_miners (each beneficiary's total).

CREATE TABLE stats_generations (
  height                 integer NOT NULL,
  time_ms                bigint NOT NULL,
  beneficiary            text NOT NULL,
  -- DeltaStat of the generation (key block and micro blocks at this height)
  auctions_started       integer NOT NULL,
  auctions_ended         integer NOT NULL,
  names_activated        integer NOT NULL,
  names_expired          integer NOT NULL,
  names_revoked          integer NOT NULL,
  -- claims of names that had been claimed before (inactive names becoming active or in auction again)
  names_reclaimed        integer NOT NULL,
  oracles_registered     integer NOT NULL,
  oracles_expired        integer NOT NULL,
  oracles_reregistered   integer NOT NULL,
  channels_opened        integer NOT NULL,
  channels_closed        integer NOT NULL,
  contracts_created      integer NOT NULL,
  block_reward           numeric NOT NULL,
  dev_reward             numeric NOT NULL,
  burned_in_auctions     numeric NOT NULL,
  locked_in_auctions     numeric NOT NULL,
  locked_in_channels     numeric NOT NULL,
  accounts               integer NOT NULL,
  -- transactions per second between the key block and the generation's last micro block
  tps                    numeric NOT NULL,
  -- running totals through this generation (ae_mdw shows the totals before a generation at its height)
  sum_block_reward       numeric NOT NULL,
  sum_dev_reward         numeric NOT NULL,
  sum_burned_in_auctions numeric NOT NULL,
  sum_locked_in_auctions numeric NOT NULL,
  sum_locked_in_channels numeric NOT NULL,
  sum_contracts          bigint NOT NULL,
  sum_accounts           bigint NOT NULL,
  active_auctions        bigint NOT NULL,
  active_names           bigint NOT NULL,
  inactive_names         bigint NOT NULL,
  active_oracles         bigint NOT NULL,
  inactive_oracles       bigint NOT NULL,
  open_channels          bigint NOT NULL,
  minted                 numeric DEFAULT 0 NOT NULL,
  sum_minted             numeric DEFAULT 0 NOT NULL,
  PRIMARY KEY (height)
);
CREATE INDEX stats_generations_tps ON stats_generations (tps DESC, height);

CREATE TABLE stats_series_counts (
  height integer NOT NULL,
  -- transactions, transactions:<TxType>, blocks:key, blocks:micro, blocks:all, names, contracts,
  -- difficulty, hashrate, miner:<ak_> (key blocks by beneficiary), aex9_transfers
  series text NOT NULL,
  -- UTC day since 1970-01-01
  day    integer NOT NULL,
  count  numeric NOT NULL,
  PRIMARY KEY (height, series, day)
);

CREATE TABLE stats_accounts (
  account integer NOT NULL,
  height  integer NOT NULL,
  day     integer NOT NULL,
  PRIMARY KEY (account)
);
CREATE INDEX stats_accounts_height ON stats_accounts (height);

CREATE TABLE stats_active_accounts (
  interval_by text NOT NULL,
  start       integer NOT NULL,
  account     integer NOT NULL,
  height      integer NOT NULL,
  PRIMARY KEY (interval_by, start, account)
);
CREATE INDEX stats_active_accounts_height ON stats_active_accounts (height);

CREATE TABLE stats_intervals (
  series      text NOT NULL,
  -- day, week (days since 1970-01-01 divided by 7, as ae_mdw: weeks start on Thursdays), month
  interval_by text NOT NULL,
  start       integer NOT NULL,
  count       numeric NOT NULL,
  PRIMARY KEY (series, interval_by, start)
);
CREATE INDEX stats_intervals_zero ON stats_intervals (series) WHERE (count = (0)::numeric);

CREATE TABLE stats_miner_rewards (
  height integer NOT NULL,
  miner  text NOT NULL,
  reward numeric NOT NULL,
  PRIMARY KEY (height, miner)
);

CREATE TABLE stats_miners (
  miner        text NOT NULL,
  total_reward numeric NOT NULL,
  PRIMARY KEY (miner)
);

-- months since January 1970 of a day since 1970-01-01
CREATE FUNCTION stats_month_of(day integer) RETURNS integer LANGUAGE sql IMMUTABLE AS $$
  SELECT ((extract(year FROM date '1970-01-01' + day) - 1970) * 12
          + extract(month FROM date '1970-01-01' + day) - 1)::integer;
$$;

CREATE FUNCTION stats_intervals_add(series text[], days integer[], counts numeric[]) RETURNS void LANGUAGE sql AS $$
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

CREATE FUNCTION stats_series_after() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    IF current_setting('mdw.series_intervals', true) = 'added' THEN
      RETURN NULL;
    END IF;
    PERFORM stats_intervals_add(array_agg(series), array_agg(day), array_agg(count)) FROM new_rows;
  ELSE
    PERFORM stats_intervals_add(array_agg(series), array_agg(day), array_agg(-count)) FROM old_rows;
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER stats_series_on_insert AFTER INSERT ON stats_series_counts
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT
  EXECUTE FUNCTION stats_series_after();
CREATE TRIGGER stats_series_on_delete AFTER DELETE ON stats_series_counts
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT
  EXECUTE FUNCTION stats_series_after();

CREATE FUNCTION stats_accounts_after() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    IF EXISTS (SELECT 1 FROM new_rows) THEN
      PERFORM stats_intervals_add(array_agg('total_accounts'::text), array_agg(day), array_agg(1::numeric)) FROM new_rows;
    END IF;
  END IF;
  IF TG_OP IN ('DELETE', 'UPDATE') THEN
    IF EXISTS (SELECT 1 FROM old_rows) THEN
      PERFORM stats_intervals_add(array_agg('total_accounts'::text), array_agg(day), array_agg(-1::numeric)) FROM old_rows;
    END IF;
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER stats_accounts_on_insert AFTER INSERT ON stats_accounts
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT
  EXECUTE FUNCTION stats_accounts_after();
CREATE TRIGGER stats_accounts_on_update AFTER UPDATE ON stats_accounts
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT
  EXECUTE FUNCTION stats_accounts_after();
CREATE TRIGGER stats_accounts_on_delete AFTER DELETE ON stats_accounts
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT
  EXECUTE FUNCTION stats_accounts_after();

CREATE FUNCTION stats_active_after_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  WITH s AS (SELECT interval_by, start, count(*) AS n FROM new_rows GROUP BY 1, 2)
  INSERT INTO stats_intervals AS t (series, interval_by, start, count)
  SELECT 'active_accounts', interval_by, start, n FROM s ORDER BY 2, 3
  ON CONFLICT (series, interval_by, start) DO UPDATE SET count = t.count + excluded.count;
  RETURN NULL;
END
$$;

CREATE FUNCTION stats_active_after_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  WITH s AS (SELECT interval_by, start, count(*) AS n FROM old_rows GROUP BY 1, 2)
  UPDATE stats_intervals t SET count = t.count - s.n FROM s
   WHERE t.series = 'active_accounts' AND t.interval_by = s.interval_by AND t.start = s.start;
  DELETE FROM stats_intervals WHERE series = 'active_accounts' AND count = 0;
  RETURN NULL;
END
$$;

CREATE TRIGGER stats_active_on_insert AFTER INSERT ON stats_active_accounts
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT
  EXECUTE FUNCTION stats_active_after_insert();
CREATE TRIGGER stats_active_on_delete AFTER DELETE ON stats_active_accounts
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT
  EXECUTE FUNCTION stats_active_after_delete();

CREATE FUNCTION stats_miners_add(miners text[], rewards numeric[]) RETURNS void LANGUAGE sql AS $$
  WITH s AS (SELECT miner, sum(reward) AS reward FROM unnest(miners, rewards) AS r(miner, reward)
              GROUP BY 1 HAVING sum(reward) <> 0)
  INSERT INTO stats_miners AS t (miner, total_reward) SELECT * FROM s ORDER BY 1
  ON CONFLICT (miner) DO UPDATE SET total_reward = t.total_reward + excluded.total_reward;
  DELETE FROM stats_miners WHERE total_reward = 0;
$$;

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
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT
  EXECUTE FUNCTION stats_miner_rewards_after();
CREATE TRIGGER stats_miner_rewards_on_delete AFTER DELETE ON stats_miner_rewards
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT
  EXECUTE FUNCTION stats_miner_rewards_after();

