-- The id a transaction creates, as ae_mdw shows it in the transaction's `tx` (`contract_id` of a ContractCreateTx or
-- GAAttachTx, `oracle_id`, `query_id`, `channel_id`, `name_id`; a wrapped transaction's for a GAMetaTx or PayingForTx,
-- but a wrapped ContractCreateTx's): a hash of the transaction's fields, which the renderer computed for every
-- transaction it rendered (issue 42). The writer stores it with the transaction (src/chain/tx-fields.ts
-- shownCreatedId); the stored transactions get theirs from the `created` derived area, from their stored bytes (no
-- block fetched again). Until it has, a transaction without it is rendered as before, its id computed.
ALTER TABLE transactions ADD COLUMN created_id text;

INSERT INTO derive_backfill AS b (area, next_height, to_height)
SELECT 'created', min(height), max(height) FROM transactions
 WHERE tx_type_name(tx_type) IN ('ContractCreateTx', 'GAAttachTx', 'OracleRegisterTx', 'OracleQueryTx',
                                 'ChannelCreateTx', 'NameClaimTx', 'GAMetaTx', 'PayingForTx')
HAVING count(*) > 0
ON CONFLICT (area) DO UPDATE SET next_height = least(b.next_height, excluded.next_height),
                                 to_height = greatest(b.to_height, excluded.to_height);
