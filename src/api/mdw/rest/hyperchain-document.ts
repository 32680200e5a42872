/** @module The hyperchain part of the /v3/api document: the schemas of ae_mdw's hyperchain answers. Pure. */

const int = { type: 'integer' } as const;
const str = { type: 'string' } as const;
/** Stakes and rewards: exact integers, above 2^53 too (strings with int-as-string). */
const big = { oneOf: [int, { type: 'string', pattern: '^-?[0-9]+$' }] } as const;
const ak = { type: 'string', pattern: '^ak_' } as const;

function object(properties: Record<string, unknown>): Record<string, unknown> {
  return { type: 'object', required: Object.keys(properties), properties, additionalProperties: true };
}

/** HYPERCHAIN_SCHEMAS: the answers' shapes. */
export const HYPERCHAIN_SCHEMAS: Record<string, unknown> = {
  HyperchainConfig: object({
    consensus: { type: 'array', items: object({ consensus_key: str, staking_contract: str }) },
    hard_forks: { type: 'object', additionalProperties: int },
    fork_management: object({ network_id: { type: 'string', nullable: true } }),
  }),
  /** ae_mdw's EpochInfo with its seed encoded and `parent_block_hash` rendered (null where the contract holds none) */
  EpochInfo: object({
    epoch: int,
    first: int,
    last: int,
    length: int,
    seed: { type: 'string', pattern: '^kh_', nullable: true },
    last_pin_height: int,
    parent_block_hash: { type: 'string', nullable: true },
    last_leader: { ...ak, nullable: true },
    epoch_start_time: { type: 'integer', nullable: true },
    validators: { type: 'array', items: object({ validator: ak, stake: big }) },
  }),
  Schedule: object({ height: int, leader: ak }),
  Validator: object({
    epoch: int,
    validator: ak,
    total_stakes: big,
    delegates: int,
    rewards_earned: big,
    pinning_history: { type: 'object', additionalProperties: big },
  }),
  Delegate: object({ delegate: ak, stake: big, epoch: int, validator: ak }),
};
