/**
 * @module MainStaking run natively: validators (owner, signing key, balances, the stake locked per epoch) and their
 * delegates, staking, withdrawing, the stake locked for an epoch four epochs ahead and the epoch rewards. Pure over
 * the world state. A validator's delegates (address → stake, the owner among them) are kept with it and answered in
 * `get_validator_state` as its StakingValidator's state, the shape ae_mdw 1.107 decodes; or, in a devnode started
 * with `stakingRecord: 'validator'`, the node's current `validator` record, which has none.
 */
import { encodedId, idBytes } from '../../chain/id-cache.ts';
import { contractBytecode } from './bytecode.ts';
import { address, fateMap, tuple, UNIT, type FateMap, type FateTuple, type FateValue } from '../../chain/fate.ts';
import { moveAe, require, type Frame } from './frame.ts';
import type { Handler } from './aex9.ts';
import { sortValidators, type Stake } from './hc-schedule.ts';
import { HC_VALIDATOR_FUNCTIONS } from './hc-types.ts';

/** HC_VALIDATOR_BYTECODE is the code of each validator's StakingValidator contract. */
export const HC_VALIDATOR_BYTECODE = contractBytecode(HC_VALIDATOR_FUNCTIONS, 'devnode StakingValidator');

/** Validator is one validator as the contract keeps it. */
interface Validator {
  readonly ct: string;
  readonly signKey: string;
  readonly totalBalance: bigint;
  readonly currentStake: bigint;
  readonly staked: ReadonlyMap<bigint, bigint>;
  readonly restake: boolean;
  readonly creationHeight: bigint;
  readonly delegates: ReadonlyMap<string, bigint>;
}

const id = (v: FateValue | undefined): string => (v as { id: string }).id;
const int = (v: FateValue | undefined): bigint => v as bigint;

function toFate(v: Validator): FateTuple {
  return tuple(
    address(v.ct),
    address(v.signKey),
    v.totalBalance,
    v.currentStake,
    fateMap([...v.staked]),
    v.restake,
    v.creationHeight,
    fateMap([...v.delegates].map(([k, s]) => [address(k), s] as const)),
  );
}

function fromFate(t: FateTuple): Validator {
  const [ct, signKey, totalBalance, currentStake, staked, restake, creationHeight, delegates] = t.items;
  return {
    ct: id(ct),
    signKey: id(signKey),
    totalBalance: int(totalBalance),
    currentStake: int(currentStake),
    staked: new Map((staked as FateMap).entries.map(([e, s]) => [int(e), int(s)])),
    restake: restake as boolean,
    creationHeight: int(creationHeight),
    delegates: new Map((delegates as FateMap).entries.map(([k, s]) => [id(k), int(s)])),
  };
}

const owners = (f: Frame): string[] => (f.get<FateValue[]>('owners') ?? []).map(id);

function validator(f: Frame, owner: string): Validator {
  const found = f.get<FateTuple>(`v:${owner}`);
  require(found !== undefined, 'Not a registered validator owner');
  return fromFate(found);
}

const save = (f: Frame, owner: string, v: Validator): void => f.set(`v:${owner}`, toFate(v));

/** assertProtocol is MainStaking's `assert_protocol_call`: the transaction's origin is the contract's creator. */
function assertProtocol(f: Frame): void {
  require(f.env.origin === f.env.state.contracts.get(f.self)?.ownerId, 'Must be called by the protocol');
}

/** addStake gives `who` `amount` more stake with a validator: its balance, its stake and the delegate's share. */
function addStake(v: Validator, who: string, amount: bigint): Validator {
  const delegates = new Map(v.delegates);
  delegates.set(who, (delegates.get(who) ?? 0n) + amount);
  return { ...v, totalBalance: v.totalBalance + amount, currentStake: v.currentStake + amount, delegates };
}

/** sortedValidators is `sorted_validators()`: signing keys with at least the minimum stake, largest first. */
export function sortedValidators(f: Frame): Stake[] {
  const min = f.int('min');
  const stakes = owners(f)
    .map((o) => validator(f, o))
    .filter((v) => v.currentStake >= min)
    .map((v): Stake => [v.signKey, v.currentStake]);
  return sortValidators(stakes, idBytes);
}

const stakesValue = (stakes: readonly Stake[]): FateValue[] => stakes.map(([k, s]) => tuple(address(k), s));

function newValidator(f: Frame, args: readonly FateValue[]): FateValue {
  const [owner, signKey, restake] = [id(args[0]), id(args[1]), args[2] as boolean];
  require(f.value >= f.int('min'), 'A new validator must stake the minimum amount');
  require(f.get(`v:${owner}`) === undefined, 'Owner must be unique');
  require(f.get(`s:${signKey}`) === undefined, 'Sign key must be unique');
  const ct = f.createContract(HC_VALIDATOR_BYTECODE);
  const empty: Validator = {
    ct,
    signKey,
    totalBalance: 0n,
    currentStake: 0n,
    staked: new Map(),
    restake,
    creationHeight: BigInt(f.env.height),
    delegates: new Map(),
  };
  save(f, owner, addStake(empty, owner, f.value));
  f.set(`s:${signKey}`, address(owner));
  f.push('owners', address(owner));
  return address(ct);
}

/** stake: the caller stakes the AE it sends with validator `owner` (its own stake, or a delegate's). */
function stake(f: Frame, args: readonly FateValue[]): FateValue {
  const owner = id(args[0]);
  require(f.value > 0n, 'Stake needs a positive value');
  save(f, owner, addStake(validator(f, owner), f.caller, f.value));
  return UNIT;
}

/**
 * withdraw: the caller takes `amount` of its stake with validator `owner` back. The stake already locked for the
 * next epochs keeps weighing in their schedules, so a withdrawal shows in the leader schedule four epochs later.
 */
function withdraw(f: Frame, args: readonly FateValue[]): FateValue {
  const [owner, amount] = [id(args[0]), int(args[1])];
  const v = validator(f, owner);
  const mine = v.delegates.get(f.caller) ?? 0n;
  require(amount > 0n && amount <= mine, 'Too large withdrawal');
  const delegates = new Map(v.delegates);
  if (amount === mine) delegates.delete(f.caller);
  else delegates.set(f.caller, mine - amount);
  save(f, owner, {
    ...v,
    totalBalance: v.totalBalance - amount,
    currentStake: v.currentStake - amount,
    delegates,
  });
  moveAe(f.env, f.account, f.caller, amount, 'Chain.spend');
  return UNIT;
}

/** lockStake is `lock_stake(epoch)`: each validator's stake is locked for the epoch, which is scheduled by it. */
function lockStake(f: Frame, args: readonly FateValue[]): FateValue {
  assertProtocol(f);
  const epoch = int(args[0]);
  const min = f.int('min');
  for (const owner of owners(f)) {
    const v = validator(f, owner);
    if (v.currentStake >= min) save(f, owner, { ...v, staked: new Map([...v.staked, [epoch, v.currentStake]]) });
  }
  return stakesValue(sortedValidators(f));
}

/** addRewards is `add_rewards(epoch, rewards)`: restaked rewards add stake (the owner's), others balance; unlocks the epoch. */
function addRewards(f: Frame, args: readonly FateValue[]): FateValue {
  assertProtocol(f);
  const epoch = int(args[0]);
  const rewards = (args[1] as FateTuple[]).map((t) => [id(t.items[0]), int(t.items[1])] as const);
  require(rewards.reduce((sum, [, r]) => sum + r, 0n) === f.value, 'Incorrect total reward given');
  for (const [signKey, amount] of rewards) {
    const owner = f.get<FateValue>(`s:${signKey}`);
    require(owner !== undefined, 'Not a registered sign key');
    const v = validator(f, id(owner));
    save(f, id(owner), v.restake ? addStake(v, id(owner), amount) : { ...v, totalBalance: v.totalBalance + amount });
  }
  for (const o of owners(f)) {
    const v = validator(f, o);
    if (v.staked.has(epoch)) save(f, o, { ...v, staked: new Map([...v.staked].filter(([e]) => e !== epoch)) });
  }
  f.set('epoch', epoch + 2n);
  return UNIT;
}

function validatorState(f: Frame, args: readonly FateValue[]): FateValue {
  const owner = id(args[0]);
  const v = validator(f, owner);
  const state = tuple(
    address(f.self),
    0n,
    0n,
    fateMap([]),
    '',
    '',
    '',
    fateMap([...v.delegates].map(([k, s]) => [address(k), s] as const)),
    v.currentStake,
  );
  const online = v.currentStake >= f.int('min');
  return tuple(address(v.ct), address(owner), v.creationHeight, v.currentStake, 0n, v.totalBalance, online, state);
}

/** validatorRecord is the node's current `validator` record of an owner's validator, without delegates. */
const validatorRecord = (owner: string, v: Validator): FateValue =>
  tuple(address(owner), address(v.signKey), v.totalBalance, v.currentStake, fateMap([...v.staked]), v.restake);

/**
 * stakingState is the node's current `get_state()`: MainStaking's whole state record, the validators keyed by their
 * StakingValidator contract as an address, as the node's contract keeps them.
 */
function stakingState(f: Frame): FateValue {
  const byOwner = owners(f).map((o) => [o, validator(f, o)] as const);
  const key = (v: Validator): FateValue => address(encodedId('ak', idBytes(v.ct)));
  return tuple(
    fateMap(byOwner.map(([o, v]) => [key(v), validatorRecord(o, v)] as const)),
    fateMap(byOwner.map(([o, v]) => [address(o), key(v)] as const)),
    fateMap(byOwner.map(([, v]) => [address(v.signKey), key(v)] as const)),
    f.int('min'),
    f.int('epoch'),
  );
}

/** HC_STAKING_HANDLERS: MainStaking's entrypoints. */
export const HC_STAKING_HANDLERS: Record<string, Handler> = {
  init: (f, args) => {
    f.set('min', int(args[0]));
    f.set('epoch', 1n);
    return UNIT;
  },
  new_validator: newValidator,
  stake,
  withdraw,
  sorted_validators: (f) => stakesValue(sortedValidators(f)),
  lock_stake: lockStake,
  add_rewards: addRewards,
  staking_power: (f, args) => validator(f, id(args[0])).currentStake,
  get_validator_state: validatorState,
  get_validator_contract: (f, args) => address(validator(f, id(args[0])).ct),
  get_current_epoch: (f) => f.int('epoch'),
  get_validator_min_stake: (f) => f.int('min'),
};

/** HC_STAKING_VALIDATOR_HANDLERS: the same, `get_validator_state` answering the node's current record; `get_state`. */
export const HC_STAKING_VALIDATOR_HANDLERS: Record<string, Handler> = {
  ...HC_STAKING_HANDLERS,
  // the node's current `get_validator_state(owner)`
  get_validator_state: (f, args) => validatorRecord(id(args[0]), validator(f, id(args[0]))),
  get_state: stakingState,
};
