-- mdw:no-transaction
-- The calls whose decoding failed, by height (/middleware/status's `errors_last_500_blocks`, issue 57): with no index
-- of them the count of the last 500 heights' errors read every call of the chain (a sequential scan of
-- contract_calls, the statement's whole cost: 9 810 blocks at 0.5 % of mainnet). A partial index holds only those
-- calls, so the count reads the errors of its heights and nothing else; the populator's rewrite of a decoding (the
-- `calls` area) moves a call in or out of it as it writes. Built concurrently: contract_calls is among the largest
-- tables, and the servers and the populator go on meanwhile.
DROP INDEX CONCURRENTLY IF EXISTS contract_calls_decode_errors;
CREATE INDEX CONCURRENTLY contract_calls_decode_errors ON contract_calls (height) WHERE decode_error IS NOT NULL;
