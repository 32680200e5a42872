-- account_transactions names each id by a 4-byte number instead of its 33-byte key (0032): the keys live once in
-- account_ids. With the key a row took 92 bytes in the heap and 56 in each of its two B-trees; with the number 60
-- and 24 / 32, and an entry of 24 bytes is small enough for PostgreSQL's split of "localised ascending" inserts
-- (each account's rows arrive at the end of its own key range), so the primary key fills its pages to about 70 %
-- as loaded instead of 56 %. On the mainnet-like devnode chain: 640 → 335 bytes per transaction as loaded, 490 →
-- 273 rebuilt, account_ids included (docs/benchmarks.md, "Issue 15, session 7").
-- A number carries its id's kind: number = 8 × n + tag (the key's first byte, 1–7: src/chain/id-key.ts), so a
-- query that wants accounts only (the statistics) tests `account & 7` without reading account_ids. That leaves
-- 268 M numbers for ids (n < 2^28), where mainnet has some millions.
-- The accounts' statistics (stats_accounts, stats_active_accounts) take the same numbers.
-- Existing rows are converted in place: the distinct keys are numbered in the order of their first appearance,
-- then the table is rebuilt with its indexes. PostgreSQL 11 compatible.

CREATE SEQUENCE account_ids_seq AS integer MAXVALUE 268435455;
CREATE TABLE account_ids (
  -- 8 × nextval(account_ids_seq) + the key's tag
  num integer PRIMARY KEY,
  -- the id's tag and 32 bytes (src/chain/id-key.ts idKey)
  key bytea   NOT NULL UNIQUE
);

INSERT INTO account_ids (num, key)
SELECT 8 * nextval('account_ids_seq') + get_byte(account, 0), account
  FROM (SELECT account, min(height) AS first FROM account_transactions GROUP BY account ORDER BY first, account) f;

-- fixed-width columns only: no padding, a 60-byte row
CREATE TABLE account_transactions_0095 (
  account     integer  NOT NULL,
  height      integer  NOT NULL,
  micro_index integer  NOT NULL,
  tx_index    integer  NOT NULL,
  tx_type     smallint NOT NULL,
  -- the fields the id appears in, space-separated (0035)
  fields      text     NOT NULL
);
INSERT INTO account_transactions_0095 (account, height, micro_index, tx_index, tx_type, fields)
SELECT i.num, a.height, a.micro_index, a.tx_index, a.tx_type, a.fields
  FROM account_transactions a JOIN account_ids i ON i.key = a.account
 ORDER BY a.height, a.micro_index, a.tx_index;

DROP TABLE account_transactions;
ALTER TABLE account_transactions_0095 RENAME TO account_transactions;
ALTER TABLE account_transactions ADD PRIMARY KEY (account, height, micro_index, tx_index);
CREATE INDEX account_transactions_type ON account_transactions (account, tx_type, height, micro_index, tx_index);
CREATE INDEX account_transactions_height ON account_transactions (height);

-- statistics: an account not in account_ids (none, as they are derived from its rows) is numbered too
INSERT INTO account_ids (num, key)
SELECT 8 * nextval('account_ids_seq') + get_byte(account, 0), account
  FROM (SELECT account FROM stats_accounts UNION SELECT account FROM stats_active_accounts) s
 WHERE NOT EXISTS (SELECT 1 FROM account_ids i WHERE i.key = s.account)
 ORDER BY account;
-- (a conversion's USING takes no subquery: a function does the lookup)
CREATE FUNCTION mdw_0095_num(key bytea) RETURNS integer LANGUAGE sql STABLE STRICT AS $$
  SELECT num FROM account_ids WHERE account_ids.key = $1
$$;
ALTER TABLE stats_accounts ALTER COLUMN account TYPE integer USING mdw_0095_num(account);
ALTER TABLE stats_active_accounts ALTER COLUMN account TYPE integer USING mdw_0095_num(account);
DROP FUNCTION mdw_0095_num(bytea);
