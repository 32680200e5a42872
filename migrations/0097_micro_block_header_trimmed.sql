-- micro_blocks keeps the node's header without hash, height and time, which are the row's own columns: 566 → 450
-- bytes a micro block on the mainnet-like devnode chain, about 25 bytes per transaction. The queries put them back
-- (src/db/queries/blocks.ts microHeaderSql: `jsonb_build_object(…) || header`, where a member the header still holds
-- wins), so a row stored before, or one whose member differed from its column, reads as it did.
-- Existing rows are trimmed in place. PostgreSQL 11 compatible.
UPDATE micro_blocks SET header = header - 'hash' - 'height' - 'time'
 WHERE header->>'hash' = hash AND header->'height' = to_jsonb(height) AND header->'time' = to_jsonb(time_ms);
