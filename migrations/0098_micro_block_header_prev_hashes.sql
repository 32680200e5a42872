-- micro_blocks keeps the node's header without prev_key_hash and prev_hash too (after 0097's hash, height and time):
-- they are the hashes of the generation's key block and of the block before (the key block for the first micro
-- block), which the queries look up (src/db/queries/blocks.ts microHeaderSql; a member the header still holds wins).
-- 450 → 309 bytes a micro block on the mainnet-like devnode chain, about 30 bytes per transaction.
-- Existing rows are trimmed in place. PostgreSQL 11 compatible.
UPDATE micro_blocks m SET header = header - 'prev_key_hash' - 'prev_hash'
 WHERE m.header->>'prev_key_hash' = (SELECT k.hash FROM key_blocks k WHERE k.height = m.height)
   AND m.header->>'prev_hash' = CASE WHEN m.micro_index = 0 THEN (SELECT k.hash FROM key_blocks k WHERE k.height = m.height)
         ELSE (SELECT p.hash FROM micro_blocks p WHERE p.height = m.height AND p.micro_index = m.micro_index - 1) END;
