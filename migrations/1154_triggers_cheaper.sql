-- Issue 88: triggers that cost a catch-up less (bench/postgres-instructions.ts): the AEX-9 and channel ones' statements
-- static and fewer; the transactions' totals per type and the calls' remote contracts written by the writer.
--
-- aex9_after_events (1020) and channel_totals_apply (1051) named their transition table through EXECUTE format(), so
-- each of their statements was parsed, analysed and planned at every batch; of a catch-up's PostgreSQL instructions
-- they were about 13k a transaction (callgrind, 1 001 generations: aex9_events' trigger 11k, channel_events' 3k), the
-- largest of the triggers the catch-up keeps running. Here each statement names its table (the INSERT and DELETE
-- branches are apart), and a batch's insert is one statement instead of two or three:
-- - aex9_events: the moves per (token, account) summed once, for the holders (against the balances before the
--   statement, as the first of the former statements read them), the balances' upsert and the supplies, where the
--   former statements grouped the events twice;
-- - channel_events: the latest transaction moved on by the counts' upsert itself (the later of the kept one and the
--   statement's latest: rows only append, or a reload writes below), where an UPDATE probed every touched channel's
--   events again.
-- Deletes (a fork, a -H reload) keep their former statements, static. The same rows either way: `mdw -v` compares
-- both tables with recounts (src/db/queries/derive-check.ts).
--
-- Plans: a plpgsql statement is planned for each of a session's first five calls, then may keep a generic plan made
-- from the transition table and the tables as they were then (the first batches of a catch-up: a few events, a table
-- of a few rows, where a hash join over a sequential scan is cheapest). plan_cache_mode = force_custom_plan plans each
-- call from that call's table and sizes, as EXECUTE did, without its parsing. PostgreSQL 11 has no plan_cache_mode:
-- there the functions stay 1020's and 1051's.
DO $do$
BEGIN
  IF current_setting('server_version_num')::int < 120000 THEN
    RETURN;
  END IF;

  CREATE OR REPLACE FUNCTION aex9_after_events() RETURNS trigger LANGUAGE plpgsql AS $_$
  BEGIN
    IF TG_OP = 'INSERT' THEN
      WITH moves AS (
        -- per (token, account): its delta and its latest event (that of the highest position; a transfer's
        -- recipient side after its sender's)
        SELECT DISTINCT ON (contract_id, account) contract_id, account,
               sum(delta) OVER (PARTITION BY contract_id, account) AS delta, height, micro_index, tx_index, log_idx,
               tx_hash
          FROM new_events
         ORDER BY contract_id, account, height DESC, micro_index DESC, tx_index DESC, log_idx DESC, side DESC),
      -- holders gained and lost, from the balances before this statement (a statement's parts read its snapshot)
      holders AS (
        SELECT m.contract_id,
               sum((coalesce(b.amount, 0) + m.delta > 0)::int - (coalesce(b.amount, 0) > 0)::int) AS diff
          FROM moves m LEFT JOIN aex9_balances b ON b.contract_id = m.contract_id AND b.account = m.account
         GROUP BY m.contract_id),
      balances AS (
        INSERT INTO aex9_balances AS b (contract_id, account, amount, height, micro_index, tx_index, log_idx, tx_hash)
        SELECT contract_id, account, delta, height, micro_index, tx_index, log_idx, tx_hash FROM moves
        ON CONFLICT (contract_id, account) DO UPDATE
           SET amount = b.amount + EXCLUDED.amount,
               height = CASE WHEN (EXCLUDED.height, EXCLUDED.micro_index, EXCLUDED.tx_index, EXCLUDED.log_idx)
                                  > (b.height, b.micro_index, b.tx_index, b.log_idx) THEN EXCLUDED.height ELSE b.height END,
               micro_index = CASE WHEN (EXCLUDED.height, EXCLUDED.micro_index, EXCLUDED.tx_index, EXCLUDED.log_idx)
                                       > (b.height, b.micro_index, b.tx_index, b.log_idx)
                                  THEN EXCLUDED.micro_index ELSE b.micro_index END,
               tx_index = CASE WHEN (EXCLUDED.height, EXCLUDED.micro_index, EXCLUDED.tx_index, EXCLUDED.log_idx)
                                    > (b.height, b.micro_index, b.tx_index, b.log_idx)
                               THEN EXCLUDED.tx_index ELSE b.tx_index END,
               log_idx = CASE WHEN (EXCLUDED.height, EXCLUDED.micro_index, EXCLUDED.tx_index, EXCLUDED.log_idx)
                                   > (b.height, b.micro_index, b.tx_index, b.log_idx)
                              THEN EXCLUDED.log_idx ELSE b.log_idx END,
               tx_hash = CASE WHEN (EXCLUDED.height, EXCLUDED.micro_index, EXCLUDED.tx_index, EXCLUDED.log_idx)
                                   > (b.height, b.micro_index, b.tx_index, b.log_idx)
                              THEN EXCLUDED.tx_hash ELSE b.tx_hash END),
      supply AS (
        SELECT contract_id,
               coalesce(sum(delta) FILTER (WHERE kind = 'seed'), 0) AS initial,
               coalesce(sum(delta) FILTER (WHERE kind NOT IN ('seed', 'transfer')), 0) AS minted,
               count(*) FILTER (WHERE kind NOT IN ('seed', 'state') AND (side = 1 OR kind <> 'transfer')) AS events
          FROM new_events GROUP BY contract_id)
      INSERT INTO aex9_contract_state AS s (contract_id, holders, initial_supply, event_supply, events_count)
      SELECT p.contract_id, coalesce(h.diff, 0), p.initial, p.minted, p.events
        FROM supply p LEFT JOIN holders h USING (contract_id)
      ON CONFLICT (contract_id) DO UPDATE
         SET holders = s.holders + EXCLUDED.holders,
             initial_supply = s.initial_supply + EXCLUDED.initial_supply,
             event_supply = s.event_supply + EXCLUDED.event_supply,
             events_count = s.events_count + EXCLUDED.events_count;
    ELSE
      WITH moves AS (
        SELECT contract_id, account, -sum(delta) AS delta FROM old_events GROUP BY contract_id, account),
      holders AS (
        SELECT m.contract_id,
               sum((coalesce(b.amount, 0) + m.delta > 0)::int - (coalesce(b.amount, 0) > 0)::int) AS diff
          FROM moves m LEFT JOIN aex9_balances b ON b.contract_id = m.contract_id AND b.account = m.account
         GROUP BY m.contract_id),
      supply AS (
        SELECT contract_id,
               -coalesce(sum(delta) FILTER (WHERE kind = 'seed'), 0) AS initial,
               -coalesce(sum(delta) FILTER (WHERE kind NOT IN ('seed', 'transfer')), 0) AS minted,
               -count(*) FILTER (WHERE kind NOT IN ('seed', 'state') AND (side = 1 OR kind <> 'transfer')) AS events
          FROM old_events GROUP BY contract_id)
      INSERT INTO aex9_contract_state AS s (contract_id, holders, initial_supply, event_supply, events_count)
      SELECT p.contract_id, coalesce(h.diff, 0), p.initial, p.minted, p.events
        FROM supply p LEFT JOIN holders h USING (contract_id)
      ON CONFLICT (contract_id) DO UPDATE
         SET holders = s.holders + EXCLUDED.holders,
             initial_supply = s.initial_supply + EXCLUDED.initial_supply,
             event_supply = s.event_supply + EXCLUDED.event_supply,
             events_count = s.events_count + EXCLUDED.events_count;
      WITH moves AS (
        SELECT contract_id, account, -sum(delta) AS delta FROM old_events GROUP BY contract_id, account)
      UPDATE aex9_balances b
         SET amount = b.amount + m.delta, height = l.height, micro_index = l.micro_index, tx_index = l.tx_index,
             log_idx = l.log_idx, tx_hash = l.tx_hash
        FROM moves m
        CROSS JOIN LATERAL (
          SELECT height, micro_index, tx_index, log_idx, tx_hash FROM aex9_events e
           WHERE e.contract_id = m.contract_id AND e.account = m.account
           ORDER BY height DESC, micro_index DESC, tx_index DESC, log_idx DESC, side DESC LIMIT 1) l
       WHERE b.contract_id = m.contract_id AND b.account = m.account;
      -- accounts left without any event are no longer listed, nor contracts without any
      DELETE FROM aex9_balances b
       USING (SELECT DISTINCT contract_id, account FROM old_events) m
       WHERE b.contract_id = m.contract_id AND b.account = m.account
         AND NOT EXISTS (SELECT 1 FROM aex9_events e WHERE e.contract_id = m.contract_id AND e.account = m.account);
      DELETE FROM aex9_contract_state s
       WHERE s.contract_id IN (SELECT DISTINCT contract_id FROM old_events)
         AND NOT EXISTS (SELECT 1 FROM aex9_events e WHERE e.contract_id = s.contract_id);
    END IF;
    RETURN NULL;
  END
  $_$;

  CREATE OR REPLACE FUNCTION channel_totals_apply() RETURNS trigger LANGUAGE plpgsql AS $_$
  BEGIN
    IF TG_OP = 'INSERT' THEN
      INSERT INTO channel_totals AS k (channel_id, updates, closes, solo_closes, deposited, withdrawn, last_height,
                                       last_micro_index, last_tx_index)
      SELECT channel_id, count(*), count(*) FILTER (WHERE closes),
             count(*) FILTER (WHERE tx_type = 'ChannelCloseSoloTx'),
             coalesce(sum(amount) FILTER (WHERE tx_type = 'ChannelDepositTx'), 0),
             coalesce(sum(amount) FILTER (WHERE tx_type = 'ChannelWithdrawTx'), 0),
             (max(ARRAY[height, micro_index, tx_index]))[1], (max(ARRAY[height, micro_index, tx_index]))[2],
             (max(ARRAY[height, micro_index, tx_index]))[3]
        FROM new_rows GROUP BY channel_id
      ON CONFLICT (channel_id) DO UPDATE
         SET updates = k.updates + EXCLUDED.updates, closes = k.closes + EXCLUDED.closes,
             solo_closes = k.solo_closes + EXCLUDED.solo_closes, deposited = k.deposited + EXCLUDED.deposited,
             withdrawn = k.withdrawn + EXCLUDED.withdrawn,
             -- the channel's latest transaction: the kept one, or the statement's latest where that is later
             last_height = CASE WHEN (EXCLUDED.last_height, EXCLUDED.last_micro_index, EXCLUDED.last_tx_index)
                                  > (k.last_height, k.last_micro_index, k.last_tx_index)
                                THEN EXCLUDED.last_height ELSE k.last_height END,
             last_micro_index = CASE WHEN (EXCLUDED.last_height, EXCLUDED.last_micro_index, EXCLUDED.last_tx_index)
                                  > (k.last_height, k.last_micro_index, k.last_tx_index)
                                     THEN EXCLUDED.last_micro_index ELSE k.last_micro_index END,
             last_tx_index = CASE WHEN (EXCLUDED.last_height, EXCLUDED.last_micro_index, EXCLUDED.last_tx_index)
                                  > (k.last_height, k.last_micro_index, k.last_tx_index)
                                  THEN EXCLUDED.last_tx_index ELSE k.last_tx_index END;
    ELSE
      INSERT INTO channel_totals AS k (channel_id, updates, closes, solo_closes, deposited, withdrawn, last_height,
                                       last_micro_index, last_tx_index)
      SELECT channel_id, -count(*), -count(*) FILTER (WHERE closes),
             -count(*) FILTER (WHERE tx_type = 'ChannelCloseSoloTx'),
             -coalesce(sum(amount) FILTER (WHERE tx_type = 'ChannelDepositTx'), 0),
             -coalesce(sum(amount) FILTER (WHERE tx_type = 'ChannelWithdrawTx'), 0),
             (max(ARRAY[height, micro_index, tx_index]))[1], (max(ARRAY[height, micro_index, tx_index]))[2],
             (max(ARRAY[height, micro_index, tx_index]))[3]
        FROM old_rows GROUP BY channel_id
      ON CONFLICT (channel_id) DO UPDATE
         SET updates = k.updates + EXCLUDED.updates, closes = k.closes + EXCLUDED.closes,
             solo_closes = k.solo_closes + EXCLUDED.solo_closes, deposited = k.deposited + EXCLUDED.deposited,
             withdrawn = k.withdrawn + EXCLUDED.withdrawn;
      -- the latest transaction of those left
      UPDATE channel_totals k
         SET last_height = l.height, last_micro_index = l.micro_index, last_tx_index = l.tx_index
        FROM (SELECT DISTINCT channel_id FROM old_rows) c
        CROSS JOIN LATERAL (SELECT e.height, e.micro_index, e.tx_index FROM channel_events e
                             WHERE e.channel_id = c.channel_id
                             ORDER BY e.height DESC, e.micro_index DESC, e.tx_index DESC LIMIT 1) l
       WHERE k.channel_id = c.channel_id
         AND (k.last_height, k.last_micro_index, k.last_tx_index) IS DISTINCT FROM (l.height, l.micro_index, l.tx_index);
      DELETE FROM channel_totals k
       WHERE k.updates = 0 AND k.channel_id IN (SELECT channel_id FROM old_rows);
    END IF;
    RETURN NULL;
  END
  $_$;

  -- a replaced function's settings are the new definition's: the schema's search_path again (1006)
  EXECUTE format('ALTER FUNCTION aex9_after_events() SET search_path = %I', current_schema());
  EXECUTE format('ALTER FUNCTION channel_totals_apply() SET search_path = %I', current_schema());
  ALTER FUNCTION aex9_after_events() SET plan_cache_mode = force_custom_plan;
  ALTER FUNCTION channel_totals_apply() SET plan_cache_mode = force_custom_plan;
END
$do$;

-- tx_type_totals (1015): the writer adds a batch's transactions per type beside their COPY (src/indexer/rows/writer.ts,
-- db/writes/tx-type-totals.ts), from the rows it holds. The insert trigger copied every row a COPY of transactions
-- wrote, the signed bytes included, into its transition table to group them again: 2.3k instructions a transaction
-- (its drop measured). Deletes and updates keep their triggers.
DROP TRIGGER tx_type_totals_on_insert ON transactions;

-- contract_remote_calls (1003): the writer writes a batch's beside its calls (src/indexer/rows/remote-calls.ts), from
-- the call infos it holds, as remote_log_emitters reads them stored (which stays, for the check of the two). The insert
-- trigger copied every call's row, its call info and arguments included, into its transition table to read the logs
-- again: 5.7k instructions a transaction with the rows it wrote (its drop measured). The height cascade deletes them
-- (1005).
DROP TRIGGER contract_remote_calls_on_insert ON contract_calls;
