/**
 * @module The type tables of a hyperchain's consensus contracts as the devnode runs them: HCElection and MainStaking
 * (aeternity `test/contracts/*.aes`, the node's `master`), their records named as the compiler's ACI names them. Pure.
 */
import { fn, type FunctionSpec } from './bytecode.ts';
import { optionType, type FateType } from '../../chain/fate.ts';

const UNIT: FateType = { tuple: [] };
const ANY_BYTES: FateType = { bytes: 'any' };
/** STAKES is `list(address * int)`: validators (signing keys) and stakes. */
export const STAKES: FateType = { list: { tuple: ['address', 'int'] } };

/** HCElection's `epoch_info` record. */
export const EPOCH_INFO: FateType = {
  record: 'epoch_info',
  fields: [
    ['start', 'int'],
    ['length', 'int'],
    ['seed', optionType(ANY_BYTES)],
    ['staking_distribution', optionType(STAKES)],
  ],
};

/** HCElection's `pin_reward_info` record. */
export const PIN_REWARD_INFO: FateType = {
  record: 'pin_reward_info',
  fields: [
    ['base', 'int'],
    ['current', 'int'],
    ['carry_over', 'int'],
  ],
};

const VOTE: FateType = {
  record: 'vote',
  fields: [
    ['producer', 'address'],
    ['hash', { bytes: 32 }],
    ['sign_data', ANY_BYTES],
    ['signature', { bytes: 64 }],
  ],
};

const EPOCH_LENGTH_VOTE: FateType = {
  record: 'epoch_length_vote',
  fields: [
    ['producer', 'address'],
    ['epoch_delta', 'int'],
    ['sign_data', ANY_BYTES],
    ['signature', { bytes: 64 }],
  ],
};

/** HCElection's `finalize_info` record. */
export const FINALIZE_INFO: FateType = {
  record: 'finalize_info',
  fields: [
    ['epoch', 'int'],
    ['fork', optionType(ANY_BYTES)],
    ['epoch_length', optionType('int')],
    ['pc_hash', ANY_BYTES],
    ['producer', 'address'],
    ['votes', optionType({ list: VOTE })],
    ['length_votes', optionType({ list: EPOCH_LENGTH_VOTE })],
  ],
};

/** HC_ELECTION_FUNCTIONS: HCElection's entrypoints (the protocol's calls and the readers a middleware dry-runs). */
export const HC_ELECTION_FUNCTIONS: readonly FunctionSpec[] = [
  fn('init', ['contract'], UNIT),
  // both call MainStaking: the stakes locked, the rewards paid with AE
  fn('init_epochs', ['int', 'int'], UNIT, false, ['CALL_R']),
  fn('step', ['address'], UNIT),
  fn('step_eoe', ['address', ANY_BYTES, 'int', 'bool'], UNIT, false, ['CALL_R']),
  fn('pin', [ANY_BYTES], UNIT),
  fn('add_reward', ['int', 'address'], UNIT, true),
  fn('finalize_epoch', ['int', ANY_BYTES, ANY_BYTES, 'address', { list: VOTE }], UNIT),
  fn('leader', [], 'address'),
  fn('epoch', [], 'int'),
  fn('epoch_length', [], 'int'),
  fn('epoch_info', [], { tuple: ['int', EPOCH_INFO] }),
  fn('epoch_info_epoch', ['int'], EPOCH_INFO),
  fn('staking_contract', [], 'contract'),
  fn('validator_schedule', [ANY_BYTES, STAKES, 'int'], { list: 'address' }),
  fn('pin_info', [], optionType(ANY_BYTES)),
  fn('pin_reward_info', [], PIN_REWARD_INFO),
  fn('finalize_info', [], optionType(FINALIZE_INFO)),
];

/** StakingValidator's `validator_state` record, as ae_mdw 1.107 reads a validator's delegates from it. */
const VALIDATOR_STATE: FateType = {
  record: 'validator_state',
  fields: [
    ['main_staking_ct', 'address'],
    ['unstake_delay', 'int'],
    ['pending_unstake_amount', 'int'],
    ['pending_unstake', { map: ['int', { list: { tuple: ['address', 'int'] } }] }],
    ['name', 'string'],
    ['description', 'string'],
    ['image_url', 'string'],
    ['delegates', { map: ['address', 'int'] }],
    ['shares', 'int'],
  ],
};

/** MainStaking's `get_validator_response` record (with the validator contract's state, its delegates). */
const VALIDATOR_RESPONSE: FateType = {
  record: 'get_validator_response',
  fields: [
    ['ct', 'contract'],
    ['address', 'address'],
    ['creation_height', 'int'],
    ['stake', 'int'],
    ['pending_stake', 'int'],
    ['stake_limit', 'int'],
    ['is_online', 'bool'],
    ['state', VALIDATOR_STATE],
  ],
};

/**
 * MainStaking's `validator` record, which `get_validator_state(owner)` answers on the node since its staking contracts
 * overhaul (node PR #4504): the validator as the contract keeps it, stakes per epoch, no delegates.
 */
const VALIDATOR: FateType = {
  record: 'validator',
  fields: [
    ['owner', 'address'],
    ['sign_key', 'address'],
    ['total_balance', 'int'],
    ['current_stake', 'int'],
    ['staked', { map: ['int', 'int'] }],
    ['restake', 'bool'],
  ],
};

/**
 * MainStaking's whole `state` record, which `get_state()` answers on the node's current contract: the validators by
 * their StakingValidator contract (as an address), and owner and signing key → that contract.
 */
const STAKING_STATE: FateType = {
  record: 'state',
  fields: [
    ['validators', { map: ['address', VALIDATOR] }],
    ['owners', { map: ['address', 'address'] }],
    ['sign_keys', { map: ['address', 'address'] }],
    ['validator_min_stake', 'int'],
    ['current_epoch', 'int'],
  ],
};

/**
 * StakingRecord names the record a devnode's `get_validator_state(owner)` answers: `response`, ae_mdw 1.107's
 * `get_validator_response` (VALIDATOR_RESPONSE, the default), or `validator`, the node's current record (VALIDATOR).
 */
export type StakingRecord = 'response' | 'validator';

/**
 * stakingFunctions are MainStaking's entrypoints the devnode runs, `get_validator_state` answering `state`, and the
 * mode's own ones (`more`).
 */
const stakingFunctions = (state: FateType, more: readonly FunctionSpec[] = []): readonly FunctionSpec[] => [
  fn('init', ['int'], UNIT),
  fn('new_validator', ['address', 'address', 'bool'], 'contract', true, ['CREATE']),
  fn('stake', ['address'], UNIT, true),
  fn('withdraw', ['address', 'int'], UNIT, false, ['SPEND']),
  fn('sorted_validators', [], STAKES),
  fn('lock_stake', ['int'], STAKES),
  fn('add_rewards', ['int', STAKES], UNIT, true),
  fn('staking_power', ['address'], 'int'),
  fn('get_validator_state', ['address'], state),
  fn('get_validator_contract', ['address'], 'contract'),
  fn('get_current_epoch', [], 'int'),
  fn('get_validator_min_stake', [], 'int'),
  ...more,
];

/** HC_STAKING_FUNCTIONS: MainStaking's entrypoints, `get_validator_state` answering `get_validator_response`. */
export const HC_STAKING_FUNCTIONS = stakingFunctions(VALIDATOR_RESPONSE);
/**
 * HC_STAKING_VALIDATOR_FUNCTIONS: the same, `get_validator_state` answering the node's current `validator` record, and
 * the node's `get_state()`.
 */
export const HC_STAKING_VALIDATOR_FUNCTIONS = stakingFunctions(VALIDATOR, [fn('get_state', [], STAKING_STATE)]);

/** HC_VALIDATOR_FUNCTIONS: a StakingValidator's type table (its state lives in MainStaking here; its calls do not run). */
export const HC_VALIDATOR_FUNCTIONS: readonly FunctionSpec[] = [
  fn('init', ['contract', 'address', 'address'], UNIT),
  fn('get_current_stake', [], 'int'),
  fn('get_total_balance', [], 'int'),
];
