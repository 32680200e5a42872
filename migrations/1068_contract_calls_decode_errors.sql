-- The calls whose decoding failed, by height (/middleware/status's `errors_last_500_blocks`, issue 57): with no index
-- of them the count of the last 500 heights' errors read every call of the chain (a sequential scan of
-- contract_calls, the statement's whole cost: 9 810 blocks at 0.5 % of mainnet). A partial index holds only those
-- calls, so the count reads the errors of its heights and nothing else; the populator's rewrite of a decoding (the
-- `calls` area) moves a call in or out of it as it writes. Built in the migration's transaction: the populator's writes
-- of calls wait for one pass over contract_calls (the servers read on). Not concurrently: a concurrent build waits for
-- every older transaction of the database, and a role waiting for a lock of ours (a standby populator for the writer
-- lock, a second migrator for this schema's) waits inside one, so the build waited for it while it waited for the build.
CREATE INDEX contract_calls_decode_errors ON contract_calls (height) WHERE decode_error IS NOT NULL;
