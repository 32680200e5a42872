-- A spend sent to a name (nm_) and a contract call sent to one are the transactions of the account and the contract
-- the name pointed at in that block, as ae_mdw indexes them, and no transaction of the name: a name's activities and
-- transaction lists never show them (issue 44). The writer stored them under the name as well as under the pointee;
-- it no longer does, and this takes the name's rows out of a stored chain (the pointee's rows were stored already).
--
-- The names are found through account_ids (tag 2 is nm, src/chain/id-key.ts), each one's rows by the primary key. A
-- name stands in a `contract_id` field only as a call's contract (a created contract's id is a ct_), and in a
-- `recipient_id` field as a spend's recipient or a NameTransferTx's, which always names its name in `name_id` too; a
-- wrapped transaction's fields are `tx.<field>` (GAMetaTx, PayingForTx).
DELETE FROM account_transactions a
 USING account_ids k
 WHERE get_byte(k.key, 0) = 2 AND a.account = k.num
   AND (a.fields ~ '^(tx\.)*contract_id$'
        OR a.fields ~ '^(tx\.)*recipient_id$'
           AND NOT EXISTS (SELECT 1 FROM account_transactions n
                            WHERE n.height = a.height AND n.micro_index = a.micro_index AND n.tx_index = a.tx_index
                              AND n.fields ~ '(^| )(tx\.)*name_id( |$)'));
