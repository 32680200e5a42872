-- account_transactions keeps each id as 33 bytes (its kind's tag and its 32 bytes: src/chain/id-key.ts) instead of
-- 53 characters, and the outer transaction's type as the node's smallint tag of the type instead of its name. On
-- the devnode chain the table took 991 bytes per transaction (2.15 rows, each id in the heap and in two indexes,
-- whose pages fill to about 56 %): the id is 20 bytes shorter and the type 10, in the heap and in the type index.
-- The accounts' statistics (stats_accounts, stats_active_accounts, which 0070 now creates with bytea) take the
-- same key, since they are derived from this table's rows.
-- Existing rows are converted in place (no refetch): each distinct id is decoded once (Base58 in SQL, checksum
-- dropped), then the table is rebuilt with its indexes (which also packs them: a rebuilt B-tree fills its pages
-- to 90 %). PostgreSQL 11 compatible.

-- the key of a stored id: its tag, then its Base58 payload without the 4 checksum bytes
CREATE FUNCTION mdw_0032_id_key(id text) RETURNS bytea LANGUAGE plpgsql IMMUTABLE STRICT AS $$
DECLARE
  alphabet constant text := '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
  tag int := CASE left(id, 3) WHEN 'ak_' THEN 1 WHEN 'nm_' THEN 2 WHEN 'cm_' THEN 3 WHEN 'ok_' THEN 4
                              WHEN 'ct_' THEN 5 WHEN 'ch_' THEN 6 WHEN 'oq_' THEN 7 END;
  digits text := substr(id, 4);
  n numeric := 0;
  zeros int := 0;
  d int;
  bytes bytea := '';
BEGIN
  IF tag IS NULL THEN
    RAISE EXCEPTION 'account_transactions holds an id of no stored kind: %', id;
  END IF;
  WHILE zeros < length(digits) AND substr(digits, zeros + 1, 1) = '1' LOOP
    zeros := zeros + 1;
  END LOOP;
  FOR i IN 1 .. length(digits) LOOP
    d := strpos(alphabet, substr(digits, i, 1)) - 1;
    IF d < 0 THEN
      RAISE EXCEPTION 'not a Base58 id: %', id;
    END IF;
    n := n * 58 + d;
  END LOOP;
  WHILE n > 0 LOOP
    bytes := set_byte('\x00'::bytea, 0, mod(n, 256)::int) || bytes;
    n := div(n, 256);
  END LOOP;
  bytes := decode(repeat('00', zeros), 'hex') || bytes;
  IF length(bytes) < 5 THEN
    RAISE EXCEPTION 'not an id: %', id;
  END IF;
  RETURN set_byte('\x00'::bytea, 0, tag) || substr(bytes, 1, length(bytes) - 4);
END
$$;

CREATE TEMPORARY TABLE mdw_0032_keys ON COMMIT DROP AS
  SELECT account AS id, mdw_0032_id_key(account) AS key FROM (SELECT DISTINCT account FROM account_transactions) d;
CREATE UNIQUE INDEX ON mdw_0032_keys (id);

-- the node's object tag of each transaction type (src/chain/tx-schema.ts; 0 for a type not listed)
CREATE TEMPORARY TABLE mdw_0032_types (name text PRIMARY KEY, code smallint NOT NULL) ON COMMIT DROP;
INSERT INTO mdw_0032_types VALUES
  ('SpendTx', 12), ('OracleRegisterTx', 22), ('OracleExtendTx', 25), ('OracleQueryTx', 23),
  ('OracleRespondTx', 24), ('NamePreclaimTx', 33), ('NameClaimTx', 32), ('NameUpdateTx', 34),
  ('NameTransferTx', 36), ('NameRevokeTx', 35), ('ContractCreateTx', 42), ('ContractCallTx', 43),
  ('ChannelCreateTx', 50), ('ChannelCloseMutualTx', 53), ('ChannelDepositTx', 51), ('ChannelWithdrawTx', 52),
  ('ChannelCloseSoloTx', 54), ('ChannelSlashTx', 55), ('ChannelSettleTx', 56), ('ChannelSnapshotSoloTx', 59),
  ('ChannelOffChainTx', 57), ('ChannelForceProgressTx', 521), ('GAAttachTx', 80), ('GAMetaTx', 81),
  ('PayingForTx', 82);

-- fixed-width columns first: no alignment padding between them
CREATE TABLE account_transactions_0032 (
  height      integer  NOT NULL,
  micro_index integer  NOT NULL,
  tx_index    integer  NOT NULL,
  -- the outer transaction's type: the node's object tag of it (src/chain/id-key.ts txTypeCode)
  tx_type     smallint NOT NULL,
  -- the id's tag and 32 bytes (src/chain/id-key.ts idKey)
  account     bytea    NOT NULL,
  -- the fields the id appears in, e.g. {sender_id} or {tx.recipient_id}
  fields      text[]   NOT NULL
);
INSERT INTO account_transactions_0032 (height, micro_index, tx_index, tx_type, account, fields)
SELECT a.height, a.micro_index, a.tx_index, coalesce(t.code, 0), k.key, a.fields
  FROM account_transactions a
  JOIN mdw_0032_keys k ON k.id = a.account
  LEFT JOIN mdw_0032_types t ON t.name = a.tx_type;

DROP TABLE account_transactions;
ALTER TABLE account_transactions_0032 RENAME TO account_transactions;
ALTER TABLE account_transactions ADD PRIMARY KEY (account, height, micro_index, tx_index);
CREATE INDEX account_transactions_type ON account_transactions (account, tx_type, height, micro_index, tx_index);
CREATE INDEX account_transactions_height ON account_transactions (height);

-- statistics stored before (0070) name accounts by text: they take the same key
CREATE FUNCTION mdw_0032_key_of(id text) RETURNS bytea LANGUAGE sql STABLE STRICT AS $$
  SELECT coalesce((SELECT key FROM mdw_0032_keys WHERE mdw_0032_keys.id = $1), mdw_0032_id_key($1))
$$;
DO $$
BEGIN
  IF to_regclass('stats_accounts') IS NOT NULL
     AND (SELECT data_type FROM information_schema.columns
           WHERE table_schema = current_schema() AND table_name = 'stats_accounts' AND column_name = 'account') = 'text' THEN
    ALTER TABLE stats_accounts ALTER COLUMN account TYPE bytea USING mdw_0032_key_of(account);
    ALTER TABLE stats_active_accounts ALTER COLUMN account TYPE bytea USING mdw_0032_key_of(account);
  END IF;
END
$$;

DROP FUNCTION mdw_0032_key_of(text);
DROP FUNCTION mdw_0032_id_key(text);
