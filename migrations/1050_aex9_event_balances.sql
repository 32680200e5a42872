-- An account's balance of an AEX-9 token after each of its events (issue 57): the balance at a past block is the
-- latest row at or before it, one index probe, where summing the account's events up to it read all of them (a
-- token's busiest holder has hundreds of thousands). Kept by statement triggers on aex9_events, in the statement that
-- writes or deletes the events (a batch, the height cascade of a fork or a -H reload, the token area's backfill), so
-- a rollback takes them back with the events; `mdw -v` compares them with a running sum of the events
-- (src/db/queries/derive-check.ts). PostgreSQL 11 compatible, like every migration.
CREATE TABLE aex9_event_balances (
  contract_id text NOT NULL,
  account     text NOT NULL COLLATE "C",
  height      integer NOT NULL,
  micro_index integer NOT NULL,
  tx_index    integer NOT NULL,
  log_idx     integer NOT NULL,
  side        smallint NOT NULL,
  -- the sum of the account's deltas of the token up to this event (aex9_events' primary key order), inclusive
  balance     numeric NOT NULL,
  PRIMARY KEY (contract_id, account, height, micro_index, tx_index, log_idx, side)
);

-- Each (token, account) the statement's events touch gets its balances again from its first changed event on: the
-- balance before it (the kept row before, one probe) plus the running sum of the events from there. Appending at the
-- top (a batch) or deleting the top (a fork) reads only the changed events; a change below later events (a -H reload
-- in the middle, the backfill) rewrites that account's later balances, which depend on it.
CREATE FUNCTION aex9_event_balances_apply() RETURNS trigger LANGUAGE plpgsql AS $_$
DECLARE
  changed text := CASE WHEN TG_OP = 'INSERT' THEN 'new_events' ELSE 'old_events' END;
BEGIN
  IF TG_OP = 'DELETE' THEN
    DELETE FROM aex9_event_balances b USING old_events o
     WHERE b.contract_id = o.contract_id AND b.account = o.account AND b.height = o.height
       AND b.micro_index = o.micro_index AND b.tx_index = o.tx_index AND b.log_idx = o.log_idx AND b.side = o.side;
  END IF;
  EXECUTE format($q$
    WITH firsts AS (
      SELECT DISTINCT ON (contract_id, account) contract_id, account, height, micro_index, tx_index, log_idx, side
        FROM %1$I
       ORDER BY contract_id, account, height, micro_index, tx_index, log_idx, side),
    starts AS (
      SELECT f.*, coalesce((SELECT b.balance FROM aex9_event_balances b
                             WHERE b.contract_id = f.contract_id AND b.account = f.account
                               AND (b.height, b.micro_index, b.tx_index, b.log_idx, b.side)
                                 < (f.height, f.micro_index, f.tx_index, f.log_idx, f.side)
                             ORDER BY b.height DESC, b.micro_index DESC, b.tx_index DESC, b.log_idx DESC, b.side DESC
                             LIMIT 1), 0) AS before
        FROM firsts f)
    INSERT INTO aex9_event_balances AS b (contract_id, account, height, micro_index, tx_index, log_idx, side, balance)
    SELECT e.contract_id, e.account, e.height, e.micro_index, e.tx_index, e.log_idx, e.side,
           s.before + sum(e.delta) OVER (PARTITION BY e.contract_id, e.account
                                         ORDER BY e.height, e.micro_index, e.tx_index, e.log_idx, e.side)
      FROM starts s
      JOIN aex9_events e ON e.contract_id = s.contract_id AND e.account = s.account
                        AND (e.height, e.micro_index, e.tx_index, e.log_idx, e.side)
                         >= (s.height, s.micro_index, s.tx_index, s.log_idx, s.side)
    ON CONFLICT (contract_id, account, height, micro_index, tx_index, log_idx, side) DO UPDATE
       SET balance = EXCLUDED.balance WHERE b.balance <> EXCLUDED.balance
  $q$, changed);
  RETURN NULL;
END
$_$;

CREATE TRIGGER aex9_event_balances_on_insert AFTER INSERT ON aex9_events
  REFERENCING NEW TABLE AS new_events FOR EACH STATEMENT EXECUTE FUNCTION aex9_event_balances_apply();
CREATE TRIGGER aex9_event_balances_on_delete AFTER DELETE ON aex9_events
  REFERENCING OLD TABLE AS old_events FOR EACH STATEMENT EXECUTE FUNCTION aex9_event_balances_apply();

-- the function works on this schema's tables whatever the caller's search_path (1006)
DO $$
BEGIN
  EXECUTE format('ALTER FUNCTION aex9_event_balances_apply() SET search_path = %I', current_schema());
END
$$;

-- the events stored before this migration, summed once (one pass in the primary key's order)
INSERT INTO aex9_event_balances (contract_id, account, height, micro_index, tx_index, log_idx, side, balance)
SELECT contract_id, account, height, micro_index, tx_index, log_idx, side,
       sum(delta) OVER (PARTITION BY contract_id, account ORDER BY height, micro_index, tx_index, log_idx, side)
  FROM aex9_events;
