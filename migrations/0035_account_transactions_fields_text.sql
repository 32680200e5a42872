-- account_transactions keeps the fields an id appears in as one space-separated text ('sender_id',
-- 'tx.recipient_id pointers') instead of a text[]: an array carries a 20-byte header before its elements, so a
-- row's fields took 37 bytes on the mainnet-like chain for about 12 characters. Field names never contain a
-- space (they are the node's `<x>_id` names, `pointers`, and `tx.` before an inner transaction's); the queries
-- split the text where they read it (string_to_array). The table is rewritten in place, its indexes rebuilt.
-- PostgreSQL 11 compatible.
ALTER TABLE account_transactions ALTER COLUMN fields TYPE text USING array_to_string(fields, ' ');
