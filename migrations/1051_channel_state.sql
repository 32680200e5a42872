-- A channel's state kept as its transactions are written (issue 57): /v3/channels/{id} folded all of a channel's
-- transactions (their payloads) for its round, solo round and state hash, and counted and summed them for the rest,
-- and /v3/channels did that for every channel to order them by their latest transaction. PostgreSQL 11 compatible.

-- Each channel transaction carries the state after it (src/chain/channel-state.ts, folded by the populator from the
-- state its channel's previous row carries: src/indexer/rows/writer.ts), so a channel's state is its latest row's; and
-- what a deposit or withdrawal moved (transactions.channel_amount: the unwrapped ones). The rows stored before this
-- migration have no state until the channels area has derived it (below).
ALTER TABLE channel_events ADD COLUMN amount numeric, ADD COLUMN round numeric, ADD COLUMN solo_round numeric,
  ADD COLUMN state_hash text;
UPDATE channel_events e SET amount = t.channel_amount
  FROM transactions t
 WHERE e.tx_type IN ('ChannelDepositTx', 'ChannelWithdrawTx') AND t.height = e.height AND t.micro_index = e.micro_index
   AND t.tx_index = e.tx_index AND t.channel_amount IS NOT NULL;

-- a channel's latest ChannelSetDelegatesTx, which names its delegates: a probe
CREATE INDEX channel_events_delegates ON channel_events (channel_id, height, micro_index, tx_index)
  WHERE tx_type = 'ChannelSetDelegatesTx';

-- Per channel: its transactions, the closing ones (mutual close, settle) and solo closes among them, what deposits and
-- withdrawals moved, and the position of its latest transaction (the channels list's order). Kept by statement
-- triggers on channel_events in the statement that writes or deletes the rows (a batch's COPY, the height cascade of
-- a fork or a -H reload), so a rollback takes it back with them; `mdw -v` compares it with a recount
-- (src/db/queries/derive-check.ts). A channel without rows has none.
CREATE TABLE channel_totals (
  channel_id       text NOT NULL,
  updates          integer NOT NULL,
  closes           integer NOT NULL,
  solo_closes      integer NOT NULL,
  deposited        numeric NOT NULL,
  withdrawn        numeric NOT NULL,
  last_height      integer NOT NULL,
  last_micro_index integer NOT NULL,
  last_tx_index    integer NOT NULL,
  PRIMARY KEY (channel_id)
);
CREATE INDEX channel_totals_last ON channel_totals (last_height, last_micro_index, last_tx_index, channel_id);
CREATE INDEX channel_totals_active ON channel_totals (last_height, last_micro_index, last_tx_index, channel_id)
  WHERE closes = 0;
CREATE INDEX channel_totals_inactive ON channel_totals (last_height, last_micro_index, last_tx_index, channel_id)
  WHERE closes > 0;

CREATE FUNCTION channel_totals_apply() RETURNS trigger LANGUAGE plpgsql AS $_$
DECLARE
  changed text := CASE WHEN TG_OP = 'INSERT' THEN 'new_rows' ELSE 'old_rows' END;
  sign integer := CASE WHEN TG_OP = 'INSERT' THEN 1 ELSE -1 END;
BEGIN
  EXECUTE format($q$
    INSERT INTO channel_totals AS k (channel_id, updates, closes, solo_closes, deposited, withdrawn, last_height,
                                     last_micro_index, last_tx_index)
    SELECT channel_id, $1 * count(*), $1 * count(*) FILTER (WHERE closes),
           $1 * count(*) FILTER (WHERE tx_type = 'ChannelCloseSoloTx'),
           $1 * coalesce(sum(amount) FILTER (WHERE tx_type = 'ChannelDepositTx'), 0),
           $1 * coalesce(sum(amount) FILTER (WHERE tx_type = 'ChannelWithdrawTx'), 0),
           (max(ARRAY[height, micro_index, tx_index]))[1], (max(ARRAY[height, micro_index, tx_index]))[2],
           (max(ARRAY[height, micro_index, tx_index]))[3]
      FROM %1$I GROUP BY channel_id
    ON CONFLICT (channel_id) DO UPDATE
       SET updates = k.updates + EXCLUDED.updates, closes = k.closes + EXCLUDED.closes,
           solo_closes = k.solo_closes + EXCLUDED.solo_closes, deposited = k.deposited + EXCLUDED.deposited,
           withdrawn = k.withdrawn + EXCLUDED.withdrawn
  $q$, changed) USING sign;
  -- the latest transaction: inserted ones after it move it on; deleted ones leave the latest of those left
  EXECUTE format($q$
    UPDATE channel_totals k
       SET last_height = l.height, last_micro_index = l.micro_index, last_tx_index = l.tx_index
      FROM (SELECT DISTINCT channel_id FROM %1$I) c
      CROSS JOIN LATERAL (SELECT e.height, e.micro_index, e.tx_index FROM channel_events e
                           WHERE e.channel_id = c.channel_id
                           ORDER BY e.height DESC, e.micro_index DESC, e.tx_index DESC LIMIT 1) l
     WHERE k.channel_id = c.channel_id
       AND (k.last_height, k.last_micro_index, k.last_tx_index) IS DISTINCT FROM (l.height, l.micro_index, l.tx_index)
  $q$, changed);
  IF TG_OP = 'DELETE' THEN
    DELETE FROM channel_totals k
     WHERE k.updates = 0 AND k.channel_id IN (SELECT channel_id FROM old_rows);
  END IF;
  RETURN NULL;
END
$_$;

CREATE TRIGGER channel_totals_on_insert AFTER INSERT ON channel_events
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION channel_totals_apply();
CREATE TRIGGER channel_totals_on_delete AFTER DELETE ON channel_events
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION channel_totals_apply();

-- the function works on this schema's tables whatever the caller's search_path (1006)
DO $$
BEGIN
  EXECUTE format('ALTER FUNCTION channel_totals_apply() SET search_path = %I', current_schema());
END
$$;

-- the channels stored before this migration, counted once
INSERT INTO channel_totals (channel_id, updates, closes, solo_closes, deposited, withdrawn, last_height,
                            last_micro_index, last_tx_index)
SELECT channel_id, count(*), count(*) FILTER (WHERE closes), count(*) FILTER (WHERE tx_type = 'ChannelCloseSoloTx'),
       coalesce(sum(amount) FILTER (WHERE tx_type = 'ChannelDepositTx'), 0),
       coalesce(sum(amount) FILTER (WHERE tx_type = 'ChannelWithdrawTx'), 0),
       (max(ARRAY[height, micro_index, tx_index]))[1], (max(ARRAY[height, micro_index, tx_index]))[2],
       (max(ARRAY[height, micro_index, tx_index]))[3]
  FROM channel_events GROUP BY channel_id;

-- the state after each stored channel transaction: the populator's channels area folds it from the first one (each
-- batch of heights from the state the previous one left; src/indexer/derived/channel-states.ts)
INSERT INTO derive_backfill AS b (area, next_height, to_height)
SELECT 'channels', min(height), (SELECT max(height) FROM key_blocks) FROM channel_events HAVING count(*) > 0
ON CONFLICT (area) DO UPDATE SET next_height = least(b.next_height, excluded.next_height),
                                 to_height = greatest(b.to_height, excluded.to_height);
