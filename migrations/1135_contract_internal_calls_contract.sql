-- ?contract_id= of /v3/contracts/calls walks the contract's own internal calls in chain order: it walked the contract's
-- calls (contract_calls_contract) and looked for each one's internal calls, so a busy contract whose calls make few or
-- none (an AEX-9 token: none) read all its calls for a page, in time growing with the chain. The contract is the one
-- whose call made them, as the route filters (the called contract of a ContractCallTx, the created one of a create).
ALTER TABLE contract_internal_calls ADD COLUMN contract_id text;
UPDATE contract_internal_calls i SET contract_id = c.contract_id
  FROM contract_calls c
 WHERE c.height = i.height AND c.micro_index = i.micro_index AND c.tx_index = i.tx_index;
ALTER TABLE contract_internal_calls ALTER COLUMN contract_id SET NOT NULL;
CREATE INDEX contract_internal_calls_contract
    ON contract_internal_calls (contract_id, height, micro_index, tx_index, local_idx);
