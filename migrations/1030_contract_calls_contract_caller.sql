-- One caller's calls of one contract (/v3/contracts/{id}/calls?caller_id=, /v3/contracts/calls?contract_id=&caller_id=)
-- walk their own rows in chain order (issue 57): with the contract's index or the caller's alone a page reads and
-- filters out the other calls of that contract or of that caller, all of them for a pair that calls rarely, and the
-- route's prepared (generic) plan walked every call of the chain.
CREATE INDEX contract_calls_contract_caller ON contract_calls (contract_id, caller_id, height, micro_index, tx_index);
