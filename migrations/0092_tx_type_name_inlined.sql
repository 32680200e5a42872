-- mdw_tx_type_name (0087) without STRICT, so that PostgreSQL inlines it: a STRICT SQL function is inlined only when
-- its body is provably strict, and a CASE is not, so every row paid a call of the SQL-function executor. In the
-- statistics' series statement (two rows per transaction) that made the statement six times as costly: 1.2 s of
-- backend CPU in a 2001-generation load against 0.2 s before 0087. The answers are the same: a NULL code matches no
-- WHEN, so the CASE gives NULL as STRICT did.
-- PostgreSQL 11 compatible.
CREATE OR REPLACE FUNCTION mdw_tx_type_name(code smallint) RETURNS text LANGUAGE sql IMMUTABLE CALLED ON NULL INPUT
  PARALLEL SAFE AS $$
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
