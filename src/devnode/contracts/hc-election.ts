/**
 * @module HCElection run natively: the epochs (start, length, seed, the locked staking distribution), the leader, the
 * pin and its reward, the epoch's finalisation and the block rewards held until their epoch's end. Pure over the
 * world state. The protocol's calls (`init_epochs`, `step`, `step_eoe`, `add_reward`) are the key blocks' work.
 */
import type { Handler } from './aex9.ts';
import {
  address,
  fateBytes,
  NONE,
  option,
  some,
  tuple,
  UNIT,
  type FateBytes,
  type FateTuple,
  type FateValue,
  type FateVariant,
} from '../../chain/fate.ts';
import { require, type Frame } from './frame.ts';
import { validatorSchedule, type Stake } from './hc-schedule.ts';

const id = (v: FateValue | undefined): string => (v as { id: string }).id;
const int = (v: FateValue | undefined): bigint => v as bigint;

/** EpochInfo is an `epoch_info` record. */
interface EpochInfo {
  readonly start: bigint;
  readonly length: bigint;
  readonly seed: Uint8Array | undefined;
  readonly distribution: readonly Stake[] | undefined;
}

const stakesOf = (v: FateValue): Stake[] => (v as FateTuple[]).map((t) => [id(t.items[0]), int(t.items[1])]);
const stakesValue = (stakes: readonly Stake[]): FateValue[] => stakes.map(([k, s]) => tuple(address(k), s));

function epochValue(e: EpochInfo): FateTuple {
  return tuple(
    e.start,
    e.length,
    option(e.seed && fateBytes(e.seed)),
    option(e.distribution && stakesValue(e.distribution)),
  );
}

function epochOf(f: Frame, epoch: bigint): EpochInfo {
  const found = f.get<FateTuple>(`e:${epoch}`);
  require(found !== undefined, 'Epoch not in scope');
  const [start, length, seed, distribution] = found.items as [bigint, bigint, FateVariant, FateVariant];
  return {
    start,
    length,
    seed: seed.tag === 1 ? (seed.values[0] as FateBytes).bytes : undefined,
    distribution: distribution.tag === 1 ? stakesOf(distribution.values[0]!) : undefined,
  };
}

const setEpoch = (f: Frame, epoch: bigint, e: EpochInfo): void => f.set(`e:${epoch}`, epochValue(e));

function assertProtocol(f: Frame): void {
  require(f.caller === f.env.state.contracts.get(f.self)?.ownerId, 'Must be called by the protocol');
}

const lockStake = (f: Frame, epoch: bigint): Stake[] => stakesOf(f.call(id(f.get('main')), 'lock_stake', [epoch]));

function initEpochs(f: Frame, args: readonly FateValue[]): FateValue {
  assertProtocol(f);
  require(f.env.height === 0, 'Only in genesis');
  const [length, basePinReward] = [int(args[0]), int(args[1])];
  setEpoch(f, 0n, { start: 0n, length: 1n, seed: undefined, distribution: undefined });
  for (let e = 1n; e <= 4n; e++) {
    setEpoch(f, e, { start: (e - 1n) * length + 1n, length, seed: undefined, distribution: lockStake(f, e) });
  }
  f.set('epoch', 1n);
  f.set('pin_reward', tuple(basePinReward, 0n, 0n));
  return UNIT;
}

/** payRewards hands the block rewards of epoch `e`'s heights to MainStaking, summed per validator. */
function payRewards(f: Frame, e: bigint): void {
  const info = epochOf(f, e);
  const sums = new Map<string, bigint>();
  for (let h = info.start; h < info.start + info.length; h++) {
    const rewards = f.get<FateTuple[]>(`r:${h}`);
    if (!rewards) continue;
    for (const item of rewards) {
      const to = id(item.items[0]);
      sums.set(to, (sums.get(to) ?? 0n) + int(item.items[1]));
    }
    f.set(`r:${h}`, []);
  }
  const total = [...sums.values()].reduce((a, b) => a + b, 0n);
  f.call(id(f.get('main')), 'add_rewards', [e, stakesValue([...sums])], total);
}

/** stepEoe closes the epoch: pays the epoch before it, seeds epoch + 2, locks the stake of epoch + 4 and moves on. */
function stepEoe(f: Frame, args: readonly FateValue[]): FateValue {
  assertProtocol(f);
  const [leader, seed, nextBase, carryOverFlag] = [args[0]!, (args[1] as FateBytes).bytes, int(args[2]), args[3]];
  const epoch = f.int('epoch');
  const current = epochOf(f, epoch);
  require(current.start + current.length - 1n === BigInt(f.env.height), 'This is not the end');
  const [base, , carry] = (f.get<FateTuple>('pin_reward')!.items as bigint[]).map(int);
  const nextCarry = carryOverFlag === true ? base! + carry! : 0n;
  const nextBaseReward = nextBase >= 0n ? nextBase : base!;
  payRewards(f, epoch - 1n);
  setEpoch(f, epoch + 2n, { ...epochOf(f, epoch + 2n), seed });
  const last = epochOf(f, epoch + 3n);
  const start = last.start + last.length;
  setEpoch(f, epoch + 4n, { start, length: last.length, seed: undefined, distribution: lockStake(f, epoch + 4n) });
  f.set('leader', leader);
  f.set('epoch', epoch + 1n);
  f.set('pin', NONE);
  f.set('pin_reward', tuple(nextBaseReward, nextBaseReward + nextCarry, nextCarry));
  return UNIT;
}

/** lastOfEpoch is the last height of the current epoch. */
function lastOfEpoch(f: Frame): bigint {
  const e = epochOf(f, f.int('epoch'));
  return e.start + e.length - 1n;
}

function pin(f: Frame, args: readonly FateValue[]): FateValue {
  require(BigInt(f.env.height) === lastOfEpoch(f), 'Only in last block');
  require(f.caller === id(f.get('leader')), 'Must be called by the last leader of epoch');
  f.set('pin', some(args[0]!));
  return UNIT;
}

/** finalizeEpoch records the epoch's end as its last leader proposes it (votes kept as given: the devnode checks none). */
function finalizeEpoch(f: Frame, args: readonly FateValue[]): FateValue {
  require(BigInt(f.env.height) === lastOfEpoch(f), 'Only in last block');
  require(f.caller === id(f.get('leader')), 'Must be called by the last leader of epoch');
  const [epoch, fork, pcHash, producer, votes] = args;
  require(int(epoch) === f.int('epoch'), 'Not correct epoch');
  f.set('finalize', some(tuple(epoch!, some(fork!), NONE, pcHash!, producer!, some(votes!), NONE)));
  return UNIT;
}

function epochInfoEpoch(f: Frame, args: readonly FateValue[]): FateValue {
  const [epoch, current] = [int(args[0]), f.int('epoch')];
  require(epoch >= current - 1n && epoch <= current + 2n, 'Epoch not in scope');
  return epochValue(epochOf(f, epoch));
}

function schedule(_f: Frame, args: readonly FateValue[]): FateValue {
  const seed = (args[0] as FateBytes).bytes;
  const validators = stakesOf(args[1]!);
  return validatorSchedule(seed, validators, Number(int(args[2]))).map(address);
}

/** HC_ELECTION_HANDLERS: HCElection's entrypoints. */
export const HC_ELECTION_HANDLERS: Record<string, Handler> = {
  init: (f, args) => {
    f.set('main', args[0]!);
    f.set('leader', address(f.self));
    f.set('epoch', 0n);
    f.set('pin', NONE);
    f.set('finalize', NONE);
    f.set('pin_reward', tuple(0n, 0n, 0n));
    return UNIT;
  },
  init_epochs: initEpochs,
  step: (f, args) => {
    assertProtocol(f);
    f.set('leader', args[0]!);
    return UNIT;
  },
  step_eoe: stepEoe,
  pin,
  add_reward: (f, args) => {
    assertProtocol(f);
    const height = int(args[0]);
    f.set(`r:${height}`, [tuple(args[1]!, f.value), ...(f.get<FateValue[]>(`r:${height}`) ?? [])]);
    return UNIT;
  },
  finalize_epoch: finalizeEpoch,
  leader: (f) => f.get('leader')!,
  epoch: (f) => f.int('epoch'),
  epoch_length: (f) => epochOf(f, f.int('epoch')).length,
  epoch_info: (f) => tuple(f.int('epoch'), epochValue(epochOf(f, f.int('epoch')))),
  epoch_info_epoch: epochInfoEpoch,
  staking_contract: (f) => f.get('main')!,
  validator_schedule: schedule,
  pin_info: (f) => f.get('pin') ?? NONE,
  pin_reward_info: (f) => f.get('pin_reward')!,
  finalize_info: (f) => f.get('finalize') ?? NONE,
};
