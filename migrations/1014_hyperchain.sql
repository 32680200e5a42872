-- A hyperchain's consensus (issue 45): epochs, the leader schedule, validators, delegates and pins, as the node's
-- election and staking contracts answer dry-runs (src/indexer/hyperchain/). Every row carries `loaded_at`, the height
-- whose batch wrote it, and goes with that key block (the trigger below): a fork's rollback or a -H reload undoes them
-- exactly, and a resumed load writes them again with the heights it loads. Stakes and rewards are aettos, exact.
-- PostgreSQL 11 compatible, like every migration.

-- One row once the populator asked the node `GET /v3/hyperchain/contracts`: a chain that answered 404 is recorded as
-- not a hyperchain (contracts null), so a server knows without asking the node.
CREATE TABLE hc_chain (
  singleton   boolean PRIMARY KEY DEFAULT true CHECK (singleton),
  hyperchain  boolean NOT NULL,
  staking     text,
  election    text,
  rewards     text,
  recorded_at timestamptz NOT NULL DEFAULT now()
);

-- An epoch, written with key block first - 1 (the end of the epoch before, where the election contract moves to it
-- and everything about it is fixed): heights first..last, its seed (`kh_`-encoded bytes), the parent chain's block
-- hash the seed is taken from when the node says so, the time of key block first - 1 (its start) and the reward a pin
-- of it earns (`pin_reward_info().current`). Epochs 1 and 2 have no seed in the contract (the node takes theirs from
-- the parent chain, which it does not expose).
CREATE TABLE hc_epochs (
  epoch             integer NOT NULL,
  first             integer NOT NULL,
  last              integer NOT NULL,
  length            integer NOT NULL,
  seed              text,
  parent_block_hash text,
  start_time_ms     bigint,
  pin_reward        numeric NOT NULL,
  loaded_at         integer NOT NULL,
  PRIMARY KEY (epoch)
);
CREATE INDEX hc_epochs_loaded_at ON hc_epochs (loaded_at);

-- The leader schedule: the validator scheduled for each height of an epoch, all of them written with the epoch's row
-- (so the schedule of heights not produced yet is known) when the epoch has a seed; for an epoch without one, each
-- height's as its key block shows it (its producer), written with that key block.
CREATE TABLE hc_schedule (
  height    integer NOT NULL,
  epoch     integer NOT NULL,
  leader    text NOT NULL,
  loaded_at integer NOT NULL,
  PRIMARY KEY (height)
);
CREATE INDEX hc_schedule_leader ON hc_schedule (leader, height);
CREATE INDEX hc_schedule_loaded_at ON hc_schedule (loaded_at);

-- What each loaded key block shows: its producer (the scheduled leader, or for a hole the next slot's leader), whether
-- the scheduled leader produced nothing (flags HOLE) and whether it ends its epoch (flags EOE).
CREATE TABLE hc_produced (
  height    integer NOT NULL,
  producer  text NOT NULL,
  hole      boolean NOT NULL,
  eoe       boolean NOT NULL,
  loaded_at integer NOT NULL,
  PRIMARY KEY (height)
);
CREATE INDEX hc_produced_producer ON hc_produced (producer, height);
CREATE INDEX hc_produced_loaded_at ON hc_produced (loaded_at);

-- The validators of an epoch (its staking distribution, in the contract's order `position`) with the stake locked for
-- it and the number of their delegates (written with the epoch's row).
CREATE TABLE hc_validators (
  epoch     integer NOT NULL,
  validator text NOT NULL,
  position  integer NOT NULL,
  stake     numeric NOT NULL,
  delegates integer NOT NULL,
  loaded_at integer NOT NULL,
  PRIMARY KEY (epoch, validator)
);
CREATE INDEX hc_validators_validator ON hc_validators (validator, epoch);
CREATE INDEX hc_validators_loaded_at ON hc_validators (loaded_at);

-- A validator's delegates in an epoch (the owner among them) and each one's stake, as the staking contract held them
-- when it locked the epoch's stake.
CREATE TABLE hc_delegates (
  validator text NOT NULL,
  epoch     integer NOT NULL,
  delegate  text NOT NULL,
  stake     numeric NOT NULL,
  loaded_at integer NOT NULL,
  PRIMARY KEY (validator, epoch, delegate)
);
CREATE INDEX hc_delegates_loaded_at ON hc_delegates (loaded_at);

-- The block rewards a validator earned in an epoch (coinbase and fees of the heights it produced), as the election
-- contract pays them into the staking contract at the next epoch's end: written with that end's key block.
CREATE TABLE hc_rewards (
  epoch     integer NOT NULL,
  validator text NOT NULL,
  reward    numeric NOT NULL,
  loaded_at integer NOT NULL,
  PRIMARY KEY (validator, epoch)
);
CREATE INDEX hc_rewards_epoch ON hc_rewards (epoch);
CREATE INDEX hc_rewards_loaded_at ON hc_rewards (loaded_at);

-- The pin of an epoch to the parent chain by its last leader (at height `last`), and the reward it earned: written with
-- the epoch's last key block, whose end of epoch shows it (no carry-over of the pin reward).
CREATE TABLE hc_pins (
  epoch     integer NOT NULL,
  leader    text NOT NULL,
  height    integer NOT NULL,
  reward    numeric NOT NULL,
  loaded_at integer NOT NULL,
  PRIMARY KEY (epoch)
);
CREATE INDEX hc_pins_leader ON hc_pins (leader, epoch);
CREATE INDEX hc_pins_loaded_at ON hc_pins (loaded_at);

-- The rows of deleted heights go with their key blocks, as 1005_height_cascade does by `height`.
CREATE FUNCTION hc_cascade_deleted_loads() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  per_load text;
BEGIN
  FOREACH per_load IN ARRAY TG_ARGV LOOP
    EXECUTE format('DELETE FROM %I WHERE loaded_at IN (SELECT height FROM old_blocks)', per_load);
  END LOOP;
  RETURN NULL;
END
$$;
DO $$
BEGIN
  -- as 1006_function_search_path does for the functions before it
  EXECUTE format('ALTER FUNCTION hc_cascade_deleted_loads() SET search_path = %I', current_schema());
END
$$;

CREATE TRIGGER hc_on_key_blocks_delete AFTER DELETE ON key_blocks
  REFERENCING OLD TABLE AS old_blocks FOR EACH STATEMENT
  EXECUTE FUNCTION hc_cascade_deleted_loads(
    'hc_epochs', 'hc_schedule', 'hc_produced', 'hc_validators', 'hc_delegates', 'hc_rewards', 'hc_pins');
