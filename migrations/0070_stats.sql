-- ae_mdw's statistics (/v3/stats/*), kept by the populator and rolled back with their heights.
--
-- Per height (each row carries the height it derives from, so deleting heights removes it):
--   stats_generations      one row per generation: what happened in it (ae_mdw's DeltaStat) and the
--                          running totals through it (TotalStat), the reward and the max-tps inputs;
--   stats_series_counts    what a generation adds to each time series, per UTC day;
--   stats_accounts         each account's first appearance (total-accounts, DeltaStat.accounts);
--   stats_active_accounts  each account's first activity per day, week and month (active-accounts).
-- Derived from them by statement triggers, in the same transaction as every insert, update or
-- delete (a batch, a fork's rollback, a -H reload), the way name_state follows name_events (0002):
--   stats_intervals        each series' count per day, week and month: what the time series read;
--   stats_miners           each beneficiary's total reward (/v3/stats/miners).
-- So a series over a year of days reads 365 rows, and stays exact when heights are deleted.
-- Heights stored before this migration get their statistics from the populator's backfill (0080),
-- derived from the stored rows: the chain is not fetched again.
-- PostgreSQL 11 compatible.

CREATE TABLE stats_generations (
  height             integer PRIMARY KEY,
  time_ms            bigint  NOT NULL,
  beneficiary        text    NOT NULL,
  -- DeltaStat of the generation (key block and micro blocks at this height)
  auctions_started   integer NOT NULL,
  auctions_ended     integer NOT NULL,
  names_activated    integer NOT NULL,
  names_expired      integer NOT NULL,
  names_revoked      integer NOT NULL,
  -- claims of names that had been claimed before (inactive names becoming active or in auction again)
  names_reclaimed    integer NOT NULL,
  oracles_registered integer NOT NULL,
  oracles_expired    integer NOT NULL,
  oracles_reregistered integer NOT NULL,
  channels_opened    integer NOT NULL,
  channels_closed    integer NOT NULL,
  contracts_created  integer NOT NULL,
  block_reward       numeric NOT NULL,
  dev_reward         numeric NOT NULL,
  burned_in_auctions numeric NOT NULL,
  locked_in_auctions numeric NOT NULL,
  locked_in_channels numeric NOT NULL,
  accounts           integer NOT NULL,
  -- transactions per second between the key block and the generation's last micro block
  tps                numeric NOT NULL,
  -- running totals through this generation (ae_mdw shows the totals before a generation at its height)
  sum_block_reward   numeric NOT NULL,
  sum_dev_reward     numeric NOT NULL,
  sum_burned_in_auctions numeric NOT NULL,
  sum_locked_in_auctions numeric NOT NULL,
  sum_locked_in_channels numeric NOT NULL,
  sum_contracts      bigint  NOT NULL,
  sum_accounts       bigint  NOT NULL,
  active_auctions    bigint  NOT NULL,
  active_names       bigint  NOT NULL,
  inactive_names     bigint  NOT NULL,
  active_oracles     bigint  NOT NULL,
  inactive_oracles   bigint  NOT NULL,
  open_channels      bigint  NOT NULL
);
CREATE INDEX stats_generations_tps ON stats_generations (tps DESC, height);

CREATE TABLE stats_series_counts (
  height integer NOT NULL,
  -- transactions, transactions:<TxType>, blocks:key, blocks:micro, blocks:all, names, contracts,
  -- difficulty, hashrate, miner:<ak_> (key blocks by beneficiary), aex9_transfers
  series text    NOT NULL,
  -- UTC day since 1970-01-01
  day    integer NOT NULL,
  count  numeric NOT NULL,
  PRIMARY KEY (height, series, day)
);

-- accounts by their key (the account_transactions key of migration 0032: tag and 32 bytes); 0032 converts the
-- tables of a database that ran this migration with text accounts
CREATE TABLE stats_accounts (
  account bytea   PRIMARY KEY,
  height  integer NOT NULL,
  day     integer NOT NULL
);
CREATE INDEX stats_accounts_height ON stats_accounts (height);

CREATE TABLE stats_active_accounts (
  interval_by text    NOT NULL,
  start       integer NOT NULL,
  account     bytea   NOT NULL,
  height      integer NOT NULL,
  PRIMARY KEY (interval_by, start, account)
);
CREATE INDEX stats_active_accounts_height ON stats_active_accounts (height);

CREATE TABLE stats_intervals (
  series      text    NOT NULL,
  -- day, week (days since 1970-01-01 divided by 7, as ae_mdw: weeks start on Thursdays), month
  interval_by text    NOT NULL,
  start       integer NOT NULL,
  count       numeric NOT NULL,
  PRIMARY KEY (series, interval_by, start)
);

CREATE TABLE stats_miners (
  miner        text    PRIMARY KEY,
  total_reward numeric NOT NULL
);

-- The month (since January 1970) of a day since 1970-01-01.
CREATE FUNCTION stats_month_of(day integer) RETURNS integer LANGUAGE sql IMMUTABLE AS $$
  SELECT ((extract(year FROM d) - 1970) * 12 + extract(month FROM d) - 1)::integer
    FROM (SELECT date '1970-01-01' + day AS d) x;
$$;

-- stats_intervals_add adds signed counts per (series, day) to the day, week and month rows, and
-- drops the rows that reach zero (a series' intervals are the ones something happened in).
CREATE FUNCTION stats_intervals_add(series text[], days integer[], counts numeric[]) RETURNS void LANGUAGE sql AS $$
  WITH c AS (SELECT * FROM unnest(series, days, counts) AS c(series, day, count)),
  i AS (
    SELECT series, 'day'::text AS interval_by, day AS start, count FROM c
    UNION ALL SELECT series, 'week', day / 7, count FROM c
    UNION ALL SELECT series, 'month', stats_month_of(day), count FROM c),
  s AS (SELECT series, interval_by, start, sum(count) AS count FROM i GROUP BY 1, 2, 3 HAVING sum(count) <> 0)
  INSERT INTO stats_intervals AS t (series, interval_by, start, count) SELECT * FROM s ORDER BY 1, 2, 3
  ON CONFLICT (series, interval_by, start) DO UPDATE SET count = t.count + excluded.count;
  DELETE FROM stats_intervals WHERE count = 0;
$$;

CREATE FUNCTION stats_series_after() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM stats_intervals_add(array_agg(series), array_agg(day), array_agg(count)) FROM new_rows;
  ELSE
    PERFORM stats_intervals_add(array_agg(series), array_agg(day), array_agg(-count)) FROM old_rows;
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER stats_series_on_insert AFTER INSERT ON stats_series_counts
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE PROCEDURE stats_series_after();
CREATE TRIGGER stats_series_on_delete AFTER DELETE ON stats_series_counts
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE PROCEDURE stats_series_after();

-- An account counts once, on the day of its first appearance; an update moves it to an earlier day.
CREATE FUNCTION stats_accounts_after() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    PERFORM stats_intervals_add(array_agg('total_accounts'::text), array_agg(day), array_agg(1::numeric)) FROM new_rows;
  END IF;
  IF TG_OP IN ('DELETE', 'UPDATE') THEN
    PERFORM stats_intervals_add(array_agg('total_accounts'::text), array_agg(day), array_agg(-1::numeric)) FROM old_rows;
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER stats_accounts_on_insert AFTER INSERT ON stats_accounts
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE PROCEDURE stats_accounts_after();
CREATE TRIGGER stats_accounts_on_update AFTER UPDATE ON stats_accounts
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE PROCEDURE stats_accounts_after();
CREATE TRIGGER stats_accounts_on_delete AFTER DELETE ON stats_accounts
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE PROCEDURE stats_accounts_after();

-- Active accounts are not additive across days, so each interval kind counts its own rows.
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
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE PROCEDURE stats_active_after_insert();
CREATE TRIGGER stats_active_on_delete AFTER DELETE ON stats_active_accounts
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE PROCEDURE stats_active_after_delete();

-- Each generation's block reward goes to its key block's beneficiary.
CREATE FUNCTION stats_miners_add(miners text[], rewards numeric[]) RETURNS void LANGUAGE sql AS $$
  WITH s AS (SELECT miner, sum(reward) AS reward FROM unnest(miners, rewards) AS r(miner, reward)
              GROUP BY 1 HAVING sum(reward) <> 0)
  INSERT INTO stats_miners AS t (miner, total_reward) SELECT * FROM s ORDER BY 1
  ON CONFLICT (miner) DO UPDATE SET total_reward = t.total_reward + excluded.total_reward;
  DELETE FROM stats_miners WHERE total_reward = 0;
$$;
CREATE FUNCTION stats_generations_after() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM stats_miners_add(array_agg(beneficiary), array_agg(block_reward)) FROM new_rows;
  ELSE
    PERFORM stats_miners_add(array_agg(beneficiary), array_agg(-block_reward)) FROM old_rows;
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER stats_generations_on_insert AFTER INSERT ON stats_generations
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE PROCEDURE stats_generations_after();
CREATE TRIGGER stats_generations_on_delete AFTER DELETE ON stats_generations
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE PROCEDURE stats_generations_after();

-- Deleted heights take their statistics with them (beside 0003's key_blocks_after_delete).
CREATE FUNCTION stats_after_key_blocks_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM stats_generations     WHERE height IN (SELECT height FROM old_blocks);
  DELETE FROM stats_series_counts   WHERE height IN (SELECT height FROM old_blocks);
  DELETE FROM stats_accounts        WHERE height IN (SELECT height FROM old_blocks);
  DELETE FROM stats_active_accounts WHERE height IN (SELECT height FROM old_blocks);
  RETURN NULL;
END
$$;
CREATE TRIGGER stats_on_key_blocks_delete AFTER DELETE ON key_blocks
  REFERENCING OLD TABLE AS old_blocks FOR EACH STATEMENT EXECUTE PROCEDURE stats_after_key_blocks_delete();

-- The lookups of a generation's expiries (its auction ends use 0012's name_events_auction_end).
CREATE INDEX name_events_expires_at ON name_events (expires_at);
CREATE INDEX oracle_events_expires_at ON oracle_events (expires_at);

-- As in 0002: the functions work on this schema's tables whatever the caller's search_path.
DO $$
BEGIN
  EXECUTE format('ALTER FUNCTION stats_month_of(integer) SET search_path = %I', current_schema());
  EXECUTE format('ALTER FUNCTION stats_intervals_add(text[], integer[], numeric[]) SET search_path = %I', current_schema());
  EXECUTE format('ALTER FUNCTION stats_series_after() SET search_path = %I', current_schema());
  EXECUTE format('ALTER FUNCTION stats_accounts_after() SET search_path = %I', current_schema());
  EXECUTE format('ALTER FUNCTION stats_active_after_insert() SET search_path = %I', current_schema());
  EXECUTE format('ALTER FUNCTION stats_active_after_delete() SET search_path = %I', current_schema());
  EXECUTE format('ALTER FUNCTION stats_miners_add(text[], numeric[]) SET search_path = %I', current_schema());
  EXECUTE format('ALTER FUNCTION stats_generations_after() SET search_path = %I', current_schema());
  EXECUTE format('ALTER FUNCTION stats_after_key_blocks_delete() SET search_path = %I', current_schema());
END
$$;
