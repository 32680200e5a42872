-- Names a contract acts on through AENS (1112) in the routes that read only the name transactions until now.
-- 1. The pointers a contract's AENS.update sets are name_pointers rows too, `local_idx` naming the internal call
--    (contract_internal_calls) whose transaction /v3/accounts/{id}/names/pointees shows, as ae_mdw does; null on a
--    NameUpdateTx's. The int_calls area writes them beside the call's name event (src/indexer/derived/contract-names.ts
--    contractPointerRows); a fork's rollback takes them with their height (1005).
-- 2. The name fees a contract's AENS.claim books (fee_lock_name, fee_spend_name) and the names' statistics count its
--    name events as a NameClaimTx's: the transfers and the statistics derive again from the first of them.
-- PostgreSQL 11 compatible.
ALTER TABLE name_pointers ADD COLUMN local_idx integer;

-- the pointers of the updates stored before: a call's last update of a name (an update replaces them all), a key
-- repeated in it keeping its last id, of the calls whose name events the int_calls area wrote
INSERT INTO name_pointers (name_hash, height, micro_index, tx_index, key, id, local_idx)
SELECT DISTINCT ON (u.name_hash, u.height, u.micro_index, u.tx_index, p.value ->> 'key')
       u.name_hash, u.height, u.micro_index, u.tx_index, p.value ->> 'key', p.value ->> 'id', u.local_idx
  FROM (SELECT DISTINCT ON (i.internal_tx ->> 'name_id', i.height, i.micro_index, i.tx_index)
               i.internal_tx ->> 'name_id' AS name_hash, i.height, i.micro_index, i.tx_index, i.local_idx,
               i.internal_tx -> 'pointers' AS pointers
          FROM contract_internal_calls i
         WHERE i.function = 'AENS.update'
           AND EXISTS (SELECT 1 FROM name_events e
                        WHERE e.name_hash = i.internal_tx ->> 'name_id' AND e.height = i.height
                          AND e.micro_index = i.micro_index AND e.tx_index = i.tx_index AND e.local_idx IS NOT NULL)
         ORDER BY i.internal_tx ->> 'name_id', i.height, i.micro_index, i.tx_index, i.local_idx DESC) u
 CROSS JOIN LATERAL jsonb_array_elements(
         CASE WHEN jsonb_typeof(u.pointers) = 'array' THEN u.pointers ELSE '[]'::jsonb END) WITH ORDINALITY p(value, n)
 ORDER BY u.name_hash, u.height, u.micro_index, u.tx_index, p.value ->> 'key', p.n DESC
ON CONFLICT DO NOTHING;

INSERT INTO derive_backfill (area, next_height, to_height)
SELECT area, first.height, (SELECT max(height) FROM key_blocks)
  FROM (SELECT min(height) AS height FROM name_events WHERE local_idx IS NOT NULL) first
 CROSS JOIN (VALUES ('transfers'), ('stats')) areas(area)
 WHERE first.height IS NOT NULL AND first.height <= (SELECT max(height) FROM key_blocks)
ON CONFLICT (area) DO UPDATE SET next_height = least(derive_backfill.next_height, EXCLUDED.next_height),
                                 to_height = greatest(derive_backfill.to_height, EXCLUDED.to_height);
