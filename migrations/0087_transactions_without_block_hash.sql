-- The rest of the transaction row made compact:
-- - A transaction's micro block hash is the hash of the micro block at its position (micro_blocks' UNIQUE (height,
--   micro_index)): the copy in every row (53 bytes) goes, and the queries read it from micro_blocks
--   (src/db/queries/transactions.ts microBlockHashSql, one probe of that key per row).
-- - The type is stored as the node's object tag of it (a smallint, src/chain/id-key.ts txTypeCode; 0 for a type not
--   listed), as account_transactions does since 0032; SQL that answers with the name reads tx_type_name.
-- Changing the type rewrites the table and its indexes, which also gives back the space of the columns dropped here
-- and in 0086 (a rewrite leaves dropped columns' values out).
-- PostgreSQL 11 compatible.
-- Not STRICT: PostgreSQL inlines a STRICT SQL function only when its body is provably strict, which a CASE is not, and
-- the statistics' series statement names two rows' types per transaction (1.2 s against 0.37 s of backend CPU in a
-- 2001-generation load, docs/benchmarks.md). A NULL code matches no WHEN, so the answer is NULL as STRICT would give.
CREATE FUNCTION tx_type_name(code smallint) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE code
    WHEN 12 THEN 'SpendTx' WHEN 22 THEN 'OracleRegisterTx' WHEN 25 THEN 'OracleExtendTx' WHEN 23 THEN 'OracleQueryTx'
    WHEN 24 THEN 'OracleRespondTx' WHEN 33 THEN 'NamePreclaimTx' WHEN 32 THEN 'NameClaimTx' WHEN 34 THEN 'NameUpdateTx'
    WHEN 36 THEN 'NameTransferTx' WHEN 35 THEN 'NameRevokeTx' WHEN 42 THEN 'ContractCreateTx'
    WHEN 43 THEN 'ContractCallTx' WHEN 50 THEN 'ChannelCreateTx' WHEN 53 THEN 'ChannelCloseMutualTx'
    WHEN 51 THEN 'ChannelDepositTx' WHEN 52 THEN 'ChannelWithdrawTx' WHEN 54 THEN 'ChannelCloseSoloTx'
    WHEN 55 THEN 'ChannelSlashTx' WHEN 56 THEN 'ChannelSettleTx' WHEN 59 THEN 'ChannelSnapshotSoloTx'
    WHEN 57 THEN 'ChannelOffChainTx' WHEN 521 THEN 'ChannelForceProgressTx' WHEN 80 THEN 'GAAttachTx'
    WHEN 81 THEN 'GAMetaTx' WHEN 82 THEN 'PayingForTx' END
$$;
ALTER TABLE transactions DROP COLUMN micro_block_hash;
-- the same pairs as tx_type_name (test/integration/db/signed-tx.test.ts pins both to src/chain/id-key.ts)
ALTER TABLE transactions ALTER COLUMN tx_type TYPE smallint USING CASE tx_type
    WHEN 'SpendTx' THEN 12 WHEN 'OracleRegisterTx' THEN 22 WHEN 'OracleExtendTx' THEN 25
    WHEN 'OracleQueryTx' THEN 23 WHEN 'OracleRespondTx' THEN 24 WHEN 'NamePreclaimTx' THEN 33
    WHEN 'NameClaimTx' THEN 32 WHEN 'NameUpdateTx' THEN 34 WHEN 'NameTransferTx' THEN 36
    WHEN 'NameRevokeTx' THEN 35 WHEN 'ContractCreateTx' THEN 42 WHEN 'ContractCallTx' THEN 43
    WHEN 'ChannelCreateTx' THEN 50 WHEN 'ChannelCloseMutualTx' THEN 53 WHEN 'ChannelDepositTx' THEN 51
    WHEN 'ChannelWithdrawTx' THEN 52 WHEN 'ChannelCloseSoloTx' THEN 54 WHEN 'ChannelSlashTx' THEN 55
    WHEN 'ChannelSettleTx' THEN 56 WHEN 'ChannelSnapshotSoloTx' THEN 59 WHEN 'ChannelOffChainTx' THEN 57
    WHEN 'ChannelForceProgressTx' THEN 521 WHEN 'GAAttachTx' THEN 80 WHEN 'GAMetaTx' THEN 81
    WHEN 'PayingForTx' THEN 82 ELSE 0 END;
