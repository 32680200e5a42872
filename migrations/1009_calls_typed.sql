-- Contract calls' decoded arguments and return values take ae_mdw's typed form, each value `{type, value}`
-- (src/indexer/contracts/typed-values.ts), where the in-process decoder stored bare values. The form needs the call
-- data again, so a schema with stored calls has them all decoded again by the populator's `calls` area, from the
-- stored rows (no block fetched again); until it has, `mdw -v --full` leaves contract_calls out. A GAAttachTx's init
-- arguments (ga_calls.args) take the same form: the `ga` area derives the heights of the stored ones again.
INSERT INTO derive_backfill AS b (area, next_height, to_height)
SELECT 'calls', min(height), max(height) FROM contract_calls HAVING count(*) > 0
ON CONFLICT (area) DO UPDATE SET next_height = least(b.next_height, excluded.next_height),
                                 to_height = greatest(b.to_height, excluded.to_height);

INSERT INTO derive_backfill AS b (area, next_height, to_height)
SELECT 'ga', min(height), max(height) FROM ga_calls WHERE args IS NOT NULL HAVING count(*) > 0
ON CONFLICT (area) DO UPDATE SET next_height = least(b.next_height, excluded.next_height),
                                 to_height = greatest(b.to_height, excluded.to_height);
