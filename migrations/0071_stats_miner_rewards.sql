-- Statistics from the internal transfers (0012) rather than from the key block alone:
--   * a key block's rewards go to the accounts its reward_block transfers name (under the node's rules
--     the beneficiaries of generations paid for 180 generations earlier, not its own), so miners'
--     totals (/v3/stats/miners) come from a per-height table of those rewards, kept like the others;
--   * the token supply counts what genesis and hard forks created (accounts_*, contracts_* transfers,
--     ae_mdw's token supply delta) beside the rewards: `minted` per generation and its running sum.
-- Top miners (/v3/stats/miners/top, series `miner:<ak_>`) count the rewarded accounts too; the
-- populator's derivation writes them. Existing statistics are derived again (rederive mark).
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

DO $$
BEGIN
  EXECUTE format('ALTER FUNCTION stats_miner_rewards_after() SET search_path = %I', current_schema());
  EXECUTE format('ALTER FUNCTION stats_after_key_blocks_delete() SET search_path = %I', current_schema());
END
$$;

UPDATE sync_state SET rederive_from = 0 WHERE top_height IS NOT NULL;
