-- The spends per UTC day (/middleware/transactions/rate/{from}/{to}, issue 57): the route read and decoded every
-- SpendTx of up to 400 days (millions at mainnet's rate) to count them and sum their amounts, which only the
-- transaction's bytes hold (no SQL reader). PostgreSQL 11 compatible.

-- Per height and UTC day of its micro blocks' time (a generation may cross midnight), the SpendTx (outer type) and the
-- sum of their amounts: written by the populator's `spends` area from the amounts it decoded, in the batch's
-- transaction (src/indexer/derived/spend-days.ts; a batch that adds micro blocks to the stored top generation adds to
-- its height's rows), deleted with its height by the height cascade (a fork, a -H reload). A height without spends
-- has none.
CREATE TABLE spend_heights (
  height integer NOT NULL,
  -- UTC day since 1970-01-01 (as the statistics' days)
  day    integer NOT NULL,
  count  bigint NOT NULL,
  amount numeric NOT NULL,
  PRIMARY KEY (height, day)
);

-- Per day, the sum of its heights' rows: a request of up to 400 days reads at most 400 rows. Kept by statement
-- triggers on spend_heights in the statement that writes, adds to or deletes its rows, so a rollback takes it back
-- with them; a day whose count falls to zero is deleted. `mdw -v` compares it with a recount of the heights' rows it
-- re-derives (src/db/queries/derive-check.ts).
CREATE TABLE spend_days (
  day    integer NOT NULL,
  count  bigint NOT NULL,
  amount numeric NOT NULL,
  PRIMARY KEY (day)
);

CREATE FUNCTION spend_days_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('DELETE', 'UPDATE') THEN
    INSERT INTO spend_days AS k (day, count, amount)
    SELECT day, -sum(count), -sum(amount) FROM old_rows GROUP BY 1
    ON CONFLICT (day) DO UPDATE SET count = k.count + excluded.count, amount = k.amount + excluded.amount;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO spend_days AS k (day, count, amount)
    SELECT day, sum(count), sum(amount) FROM new_rows GROUP BY 1
    ON CONFLICT (day) DO UPDATE SET count = k.count + excluded.count, amount = k.amount + excluded.amount;
  END IF;
  IF TG_OP = 'DELETE' THEN
    DELETE FROM spend_days WHERE count = 0 AND day IN (SELECT day FROM old_rows);
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER spend_days_on_insert AFTER INSERT ON spend_heights
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION spend_days_apply();
CREATE TRIGGER spend_days_on_delete AFTER DELETE ON spend_heights
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION spend_days_apply();
-- an INSERT … ON CONFLICT DO UPDATE's updated rows (the spends a continued generation adds to its height's day)
CREATE TRIGGER spend_days_on_update AFTER UPDATE ON spend_heights
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION spend_days_apply();

-- the rows go with their heights, as every area's rows (1005)
CREATE TRIGGER spends_on_key_blocks_delete AFTER DELETE ON key_blocks
  REFERENCING OLD TABLE AS old_blocks FOR EACH STATEMENT
  EXECUTE FUNCTION cascade_deleted_heights('spend_heights');

-- the trigger function works on this schema's tables whatever the caller's search_path (1006)
DO $$
BEGIN
  EXECUTE format('ALTER FUNCTION spend_days_apply() SET search_path = %I', current_schema());
END
$$;

-- The stored spends' amounts are in their bytes only: the populator's `spends` area decodes them from the stored
-- transactions (no block fetched again), every stored height in batches, while the route adds the spends of the
-- heights it has not reached yet decoded as before (src/db/queries/spend-rates.ts). A chain without spends has none to
-- derive (tx_type_totals, 1015: a few rows).
INSERT INTO derive_backfill AS b (area, next_height, to_height)
SELECT 'spends', min(height), max(height) FROM key_blocks
HAVING count(*) > 0 AND EXISTS (SELECT 1 FROM tx_type_totals WHERE tx_type_name(tx_type) = 'SpendTx')
ON CONFLICT (area) DO UPDATE SET next_height = least(b.next_height, excluded.next_height),
                                 to_height = greatest(b.to_height, excluded.to_height);
