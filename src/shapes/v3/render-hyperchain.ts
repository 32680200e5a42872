/**
 * @module ae_mdw's hyperchain items (EpochInfo, Schedule, Validator, Delegate) from stored rows, with ae_mdw's defects
 * fixed: the seed encoded, `parent_block_hash` rendered, stakes and rewards exact integers. Pure.
 */
import type { Json } from '../../chain/json.ts';
import type { DelegateRow, EpochRow, ScheduleRow, ValidatorRow } from '../../db/queries/hyperchain.ts';
import type { ShapeValue } from '../shape-table.ts';
import type { DELEGATE, EPOCH_INFO, SCHEDULE, VALIDATOR } from './shapes-hyperchain.ts';

/**
 * epochObject is ae_mdw's EpochInfo: `last_pin_height` is the height before the epoch (the pin of the epoch before is
 * posted there), `epoch_start_time` that key block's time. `seed` and `parent_block_hash` (the parent block the seed is the
 * hash of, `kh_`) are null where the node's contract holds none (epochs 1 and 2 take theirs from the parent chain,
 * which the node does not expose).
 */
export function epochObject(e: EpochRow): { [key: string]: Json } {
  return {
    epoch: e.epoch,
    first: e.first,
    last: e.last,
    length: e.length,
    seed: e.seed,
    last_pin_height: e.first - 1,
    parent_block_hash: e.parentBlockHash,
    last_leader: e.lastLeader,
    epoch_start_time: e.startTimeMs,
    validators: e.validators.map((v) => ({ validator: v.validator, stake: v.stake })),
  } satisfies ShapeValue<typeof EPOCH_INFO>;
}

/** scheduleObject is ae_mdw's Schedule: the leader the epoch's schedule names for a height. */
export function scheduleObject(s: ScheduleRow): { [key: string]: Json } {
  return { height: s.height, leader: s.leader } satisfies ShapeValue<typeof SCHEDULE>;
}

/**
 * validatorObject is ae_mdw's Validator of one epoch: its locked stake, its delegates' count, `rewards_earned` and its
 * pins of every epoch (epoch → reward).
 */
export function validatorObject(v: ValidatorRow): { [key: string]: Json } {
  return {
    epoch: v.epoch,
    validator: v.validator,
    total_stakes: v.stake,
    delegates: v.delegates,
    // what the end of the epoch after it paid (docs/api-v3.md, "Hyperchains"); no hc_rewards row: nothing earned, not
    // paid yet, or a staking contract whose get_validator_state states no balance
    rewards_earned: v.rewardsEarned ?? 0n,
    pinning_history: Object.fromEntries([...v.pinningHistory].map(([epoch, reward]) => [String(epoch), reward])),
  } satisfies ShapeValue<typeof VALIDATOR>;
}

/** delegateObject is ae_mdw's Delegate: one account's stake with a validator in an epoch. */
export function delegateObject(d: DelegateRow): { [key: string]: Json } {
  return { delegate: d.delegate, stake: d.stake, epoch: d.epoch, validator: d.validator } satisfies ShapeValue<
    typeof DELEGATE
  >;
}
