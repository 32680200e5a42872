-- Every transaction type is stored under a code of its own (issue 39). The node's object tags of ChannelSetDelegatesTx
-- (501, since Iris) and HCVoteTx (83, node 7.3) join tx_type_name. A type the code does not know gets a negative code
-- of its own in unknown_tx_types (the node's tags are positive), where until now every such type shared code 0, so
-- that one type's filter answered another's and the statistics could not name them. src/db/writes/tx-type-codes.ts
-- adds them; a later version that knows a type moves its rows to the type's tag when the populator starts.
CREATE SEQUENCE unknown_tx_type_codes AS smallint INCREMENT BY -1 MINVALUE -32768 MAXVALUE -1 START WITH -1;
CREATE TABLE unknown_tx_types (
  code         smallint NOT NULL DEFAULT nextval('unknown_tx_type_codes'),
  -- the node's name of the type (the `type` of its JSON)
  name         text NOT NULL,
  -- where the populator first met it
  first_height integer NOT NULL,
  first_hash   text NOT NULL,
  PRIMARY KEY (code),
  UNIQUE (name)
);

CREATE FUNCTION unknown_tx_type_name(code smallint) RETURNS text LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT u.name FROM unknown_tx_types u WHERE u.code = $1
$$;

-- STABLE now that it reads a table for the codes it does not list; still inlined (a CASE, no SET clause), so a
-- known code costs what it cost.
CREATE OR REPLACE FUNCTION tx_type_name(code smallint) RETURNS text LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT CASE code
    WHEN 12 THEN 'SpendTx' WHEN 22 THEN 'OracleRegisterTx' WHEN 25 THEN 'OracleExtendTx' WHEN 23 THEN 'OracleQueryTx'
    WHEN 24 THEN 'OracleRespondTx' WHEN 33 THEN 'NamePreclaimTx' WHEN 32 THEN 'NameClaimTx' WHEN 34 THEN 'NameUpdateTx'
    WHEN 36 THEN 'NameTransferTx' WHEN 35 THEN 'NameRevokeTx' WHEN 42 THEN 'ContractCreateTx'
    WHEN 43 THEN 'ContractCallTx' WHEN 50 THEN 'ChannelCreateTx' WHEN 53 THEN 'ChannelCloseMutualTx'
    WHEN 51 THEN 'ChannelDepositTx' WHEN 52 THEN 'ChannelWithdrawTx' WHEN 54 THEN 'ChannelCloseSoloTx'
    WHEN 55 THEN 'ChannelSlashTx' WHEN 56 THEN 'ChannelSettleTx' WHEN 59 THEN 'ChannelSnapshotSoloTx'
    WHEN 57 THEN 'ChannelOffChainTx' WHEN 521 THEN 'ChannelForceProgressTx' WHEN 80 THEN 'GAAttachTx'
    WHEN 81 THEN 'GAMetaTx' WHEN 82 THEN 'PayingForTx' WHEN 501 THEN 'ChannelSetDelegatesTx' WHEN 83 THEN 'HCVoteTx'
    ELSE unknown_tx_type_name(code) END
$$;

-- unknown_tx_type_name reads a table: it works on this schema's whatever the caller's search_path (as 1006 does)
DO $$
BEGIN
  EXECUTE format('ALTER FUNCTION unknown_tx_type_name(smallint) SET search_path = %I', current_schema());
END
$$;

-- The rows stored under the shared code 0: an unknown type is kept as its JSON text (src/chain/stored-tx.ts), which
-- names it. Each name gets its code, in the order the chain met them.
INSERT INTO unknown_tx_types (name, first_height, first_hash)
SELECT u.name, min(u.height), (array_agg(u.hash ORDER BY u.height, u.micro_index, u.tx_index))[1]
  FROM (SELECT convert_from(t.signed, 'UTF8')::jsonb #>> '{tx,type}' AS name, t.height, t.micro_index, t.tx_index, t.hash
          FROM transactions t WHERE t.tx_type = 0 AND get_byte(t.signed, 0) = 123) u
 WHERE u.name IS NOT NULL
 GROUP BY u.name ORDER BY min(u.height), u.name;

UPDATE transactions t SET tx_type = u.code
  FROM unknown_tx_types u
 WHERE t.tx_type = 0 AND get_byte(t.signed, 0) = 123 AND u.name = convert_from(t.signed, 'UTF8')::jsonb #>> '{tx,type}';

UPDATE account_transactions a SET tx_type = t.tx_type
  FROM transactions t
 WHERE a.tx_type = 0 AND t.height = a.height AND t.micro_index = a.micro_index AND t.tx_index = a.tx_index;

-- the statistics of those heights failed on the nameless type: they are derived again
INSERT INTO derive_backfill AS b (area, next_height, to_height)
SELECT 'stats', min(height), max(height) FROM transactions WHERE tx_type < 0 HAVING count(*) > 0
ON CONFLICT (area) DO UPDATE SET next_height = least(b.next_height, excluded.next_height),
                                 to_height = greatest(b.to_height, excluded.to_height);
