-- contract_calls keeps the node's call info without the three members the row holds in its own columns
-- (caller_id, contract_id, height): 359 → 200 bytes a call on the mainnet-like devnode chain, about 48 bytes per
-- transaction. call_info_trimmed says which rows were trimmed: those whose call info had the three members equal to
-- the columns (not a GA's info, nor a call through a name, whose contract_id column is the name). The queries put
-- them back (src/db/queries/call-info.ts: `jsonb_build_object(…) || call_info`, which gives the node's object
-- exactly, jsonb keeping its keys in one order whatever the order they were added in).
-- Existing rows are trimmed in place. PostgreSQL 11 compatible.
ALTER TABLE contract_calls ADD COLUMN call_info_trimmed boolean NOT NULL DEFAULT false;

UPDATE contract_calls
   SET call_info = call_info - 'caller_id' - 'contract_id' - 'height', call_info_trimmed = true
 WHERE call_info->>'caller_id' = caller_id AND call_info->>'contract_id' = contract_id
   AND call_info->'height' = to_jsonb(height);
