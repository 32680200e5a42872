-- Issue 87: a node (7.x) renders every name pointer with `encoded_key` (the key's bytes as a `ba_`) beside its text,
-- in `/v2/names/{name}` and in the transactions, and the names' pointers are stored as the transactions give them
-- (src/chain/aens.ts namePointer). Events stored before lack it: this gives each pointer the `ba_` of its key's UTF-8
-- bytes (the base64 of the bytes and the first 4 bytes of their double sha256, as the node's encoder writes it). The
-- update triggers refresh name_state (1001) with them. Idempotent: events whose pointers all hold it are left alone.
UPDATE name_events e
   SET pointers = (
         SELECT jsonb_agg(
                  p.value || jsonb_build_object('encoded_key', 'ba_' || translate(
                    encode(k.bytes || substring(sha256(sha256(k.bytes)) FROM 1 FOR 4), 'base64'), E'\n', ''))
                  ORDER BY p.i)
           FROM jsonb_array_elements(e.pointers) WITH ORDINALITY p(value, i)
          CROSS JOIN LATERAL (SELECT convert_to(p.value ->> 'key', 'UTF8') AS bytes) k)
 WHERE jsonb_typeof(e.pointers) = 'array'
   AND EXISTS (SELECT 1 FROM jsonb_array_elements(e.pointers) p WHERE NOT p ? 'encoded_key');
