/** @module The shape tables of ae_mdw's hyperchain answers (render-hyperchain.ts, resources/hyperchain-config.ts). */
import { big, id, int, list, nullable, object, shape, str, type Field } from '../shape-table.ts';

const account = id('ak');

export const HYPERCHAIN_CONFIG = shape(
  { openapi: 'HyperchainConfig' },
  {
    consensus: list(object({ consensus_key: str, type: str, staking_contract: id('ct') })),
    hard_forks: { kind: 'object', schema: { type: 'object', additionalProperties: { type: 'integer' } } },
    fork_management: object({ network_id: nullable(str) }),
  },
);

/** ae_mdw's EpochInfo with its seed encoded and `parent_block_hash` rendered (null where the contract holds none) */
export const EPOCH_INFO = shape(
  { openapi: 'EpochInfo', graphql: ['Epoch'] },
  {
    epoch: int,
    first: int,
    last: int,
    length: int,
    seed: nullable(id('kh')),
    last_pin_height: int,
    parent_block_hash: nullable(str),
    last_leader: nullable(account),
    epoch_start_time: nullable(int),
    validators: list(object({ validator: account, stake: big })),
  },
);

export const SCHEDULE = shape({ openapi: 'Schedule', graphql: ['Leader'] }, { height: int, leader: account });

/** the pins' rewards by epoch (`{"<epoch>": reward}`), exact */
const pinningHistory: Field = {
  kind: 'object',
  schema: {
    type: 'object',
    additionalProperties: { oneOf: [{ type: 'integer' }, { type: 'string', pattern: '^-?[0-9]+$' }] },
  },
};

export const VALIDATOR = shape(
  { openapi: 'Validator', graphql: ['Validator'] },
  {
    epoch: int,
    validator: account,
    total_stakes: big,
    delegates: int,
    rewards_earned: big,
    pinning_history: pinningHistory,
  },
);

export const DELEGATE = shape(
  { openapi: 'Delegate', graphql: ['Delegate'] },
  { delegate: account, stake: big, epoch: int, validator: account },
);
