-- Counts the routes answer without counting rows (issue 57): on a chain of mainnet's size a count(*) over an
-- account's account_transactions rows, or a sum over every transaction, takes seconds. Statement triggers with
-- transition tables keep them in the statement that writes the rows (a batch's COPY, the height cascade's deletes of
-- a fork or a -H reload, retype's updates), so they are exact in every snapshot and a rollback takes them back with
-- the rows; `mdw -v` compares them with a recount (src/db/queries/kept-counts.ts). A row whose count falls to zero
-- is deleted. PostgreSQL 11 compatible: one trigger per event, as transition tables allow.

-- Per id, outer transaction type and the fields the id stands in (account_transactions' own columns): an id's count,
-- per type or per field, sums a few rows, and a `fields ~` condition reads the kept rows as it reads the others.
CREATE TABLE account_tx_counts (
  account integer NOT NULL,
  tx_type smallint NOT NULL,
  fields  text NOT NULL,
  n       bigint NOT NULL,
  PRIMARY KEY (account, tx_type, fields)
);

-- Per outer transaction type: the transactions and their byte sizes (the chain's count, /middleware/size/current).
CREATE TABLE tx_type_totals (
  tx_type smallint NOT NULL,
  n       bigint NOT NULL,
  size    bigint NOT NULL,
  PRIMARY KEY (tx_type)
);

CREATE FUNCTION account_tx_counts_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('DELETE', 'UPDATE') THEN
    INSERT INTO account_tx_counts AS k (account, tx_type, fields, n)
    SELECT account, tx_type, fields, -count(*) FROM old_rows GROUP BY 1, 2, 3
    ON CONFLICT (account, tx_type, fields) DO UPDATE SET n = k.n + excluded.n;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO account_tx_counts AS k (account, tx_type, fields, n)
    SELECT account, tx_type, fields, count(*) FROM new_rows GROUP BY 1, 2, 3
    ON CONFLICT (account, tx_type, fields) DO UPDATE SET n = k.n + excluded.n;
  END IF;
  IF TG_OP IN ('DELETE', 'UPDATE') THEN
    DELETE FROM account_tx_counts k USING (SELECT DISTINCT account, tx_type, fields FROM old_rows) o
     WHERE k.account = o.account AND k.tx_type = o.tx_type AND k.fields = o.fields AND k.n = 0;
  END IF;
  RETURN NULL;
END
$$;

CREATE FUNCTION tx_type_totals_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('DELETE', 'UPDATE') THEN
    INSERT INTO tx_type_totals AS k (tx_type, n, size)
    SELECT tx_type, -count(*), -sum(size) FROM old_rows GROUP BY 1
    ON CONFLICT (tx_type) DO UPDATE SET n = k.n + excluded.n, size = k.size + excluded.size;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO tx_type_totals AS k (tx_type, n, size)
    SELECT tx_type, count(*), sum(size) FROM new_rows GROUP BY 1
    ON CONFLICT (tx_type) DO UPDATE SET n = k.n + excluded.n, size = k.size + excluded.size;
  END IF;
  IF TG_OP IN ('DELETE', 'UPDATE') THEN
    DELETE FROM tx_type_totals WHERE n = 0 AND tx_type IN (SELECT tx_type FROM old_rows);
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER account_tx_counts_on_insert AFTER INSERT ON account_transactions
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION account_tx_counts_apply();
CREATE TRIGGER account_tx_counts_on_delete AFTER DELETE ON account_transactions
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION account_tx_counts_apply();
CREATE TRIGGER account_tx_counts_on_update AFTER UPDATE ON account_transactions
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION account_tx_counts_apply();

CREATE TRIGGER tx_type_totals_on_insert AFTER INSERT ON transactions
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION tx_type_totals_apply();
CREATE TRIGGER tx_type_totals_on_delete AFTER DELETE ON transactions
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION tx_type_totals_apply();
CREATE TRIGGER tx_type_totals_on_update AFTER UPDATE ON transactions
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION tx_type_totals_apply();

-- the rows stored before this migration, counted once
INSERT INTO account_tx_counts (account, tx_type, fields, n)
SELECT account, tx_type, fields, count(*) FROM account_transactions GROUP BY 1, 2, 3;
INSERT INTO tx_type_totals (tx_type, n, size)
SELECT tx_type, count(*), sum(size) FROM transactions GROUP BY 1;

-- A contract's logs: the calls to it whose log holds an event of its own (this index), beside the calls to others
-- whose log holds one (contract_remote_calls), both in position order, so a page reads the calls of its own entries
-- and never a busy contract's calls without events. Every log: the calls with a log, in position order.
CREATE FUNCTION call_logs_own_event(call_info jsonb, called text) RETURNS boolean LANGUAGE sql IMMUTABLE AS $$
  SELECT EXISTS (SELECT 1
                   FROM jsonb_array_elements(CASE WHEN jsonb_typeof(call_info->'log') = 'array' THEN call_info->'log' ELSE '[]' END) e(entry)
                  WHERE e.entry->>'address' = called)
$$;

CREATE FUNCTION call_has_log(call_info jsonb) RETURNS boolean LANGUAGE sql IMMUTABLE AS $$
  SELECT jsonb_typeof(call_info->'log') = 'array' AND jsonb_array_length(call_info->'log') > 0
$$;

CREATE INDEX contract_calls_own_log ON contract_calls (contract_id, height, micro_index, tx_index)
  WHERE call_logs_own_event(call_info, contract_id);
CREATE INDEX contract_calls_logged ON contract_calls (height, micro_index, tx_index) WHERE call_has_log(call_info);

-- the trigger functions work on this schema's tables whatever the caller's search_path (as 1006 sets the others)
DO $$
BEGIN
  EXECUTE format('ALTER FUNCTION account_tx_counts_apply() SET search_path = %I', current_schema());
  EXECUTE format('ALTER FUNCTION tx_type_totals_apply() SET search_path = %I', current_schema());
END
$$;

-- The names pointing at an id, walked by the update that set the pointer (/v3/accounts/{id}/names/pointees): the id's
-- rows in position order, never all of them sorted.
DROP INDEX name_pointers_id;
CREATE INDEX name_pointers_id ON name_pointers (id, height, micro_index, tx_index);
