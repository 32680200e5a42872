/** @module The shape tables of ae_mdw's contracts, their calls and logs (render-contracts.ts). */
import { asGraphQL, id, int, list, nullable, obj, object, only, shape, str } from '../shape-table.ts';
import { SOURCE_TX } from './field-groups.ts';

export const CONTRACT = shape(
  { openapi: 'Contract', graphql: ['Contract'] },
  {
    contract: id('ct'),
    ...SOURCE_TX,
    create_tx: obj,
    aexn_type: only('graphql', str),
  },
);

/** the fields of ae_mdw's ContractCall that both kinds of call fill alike: the call's place and the called contract */
const callPlace = {
  block_hash: id('mh'),
  call_tx_hash: id('th'),
  contract_id: id('ct'),
  contract_tx_hash: nullable(str),
  height: int,
  local_idx: int,
  micro_index: int,
};

/** ae_mdw's ContractCall: an internal call a contract made (Chain.spend, Call.amount, AENS.*, Oracle.*). */
export const CONTRACT_CALL = shape(
  { openapi: 'ContractCall', graphql: ['ContractCall'] },
  { ...callPlace, function: str, internal_tx: object({ type: str }) },
);

/**
 * A contract call the chain holds as a transaction (a ContractCallTx, a ContractCreateTx's `init`, those inside a
 * GAMetaTx or PayingForTx), decoded, in ae_mdw's ContractCall fields: what /v3/contracts/calls listed before it
 * served the internal calls (/v3/contracts/call-transactions).
 */
export const CONTRACT_CALL_TX = shape(
  { openapi: 'ContractCallTransaction', graphql: ['ContractCallTransaction'] },
  { ...callPlace, function: nullable(str), internal_tx: object({ type: str, arguments: list() }) },
);

export const CONTRACT_LOG = shape(
  { openapi: 'ContractLog', graphql: ['ContractLog'] },
  {
    contract_id: str,
    call_tx_hash: str,
    // topics as decimal strings; with aexn-args=true a standard event's as ids and integers
    args: asGraphQL('[String]', list({ kind: 'string', schema: { oneOf: [{ type: 'string' }, { type: 'integer' }] } })),
    data: str,
    event_hash: nullable(str),
    height: int,
    micro_index: int,
    block_hash: str,
    log_idx: int,
    event_name: only('graphql', str),
    block_time: only('graphql', int),
    contract_tx_hash: only('graphql', str),
    ext_caller_contract_id: only('graphql', str),
    ext_caller_contract_tx_hash: only('graphql', str),
    parent_contract_id: only('graphql', str),
  },
);
