-- account_transactions kept each row's transaction hash (53 bytes), 2–3 copies per transaction of what
-- transactions(hash) holds once: 116 of the 2928 bytes per transaction on the devnode chain. A row's position
-- (height, micro_index, tx_index) finds the transaction through transactions' unique position index, which every
-- query joining the two already uses.
-- (Rows stored before keep their bytes until the table is rewritten, e.g. by VACUUM FULL; new rows are smaller.)
ALTER TABLE account_transactions DROP COLUMN tx_hash;
