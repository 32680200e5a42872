/**
 * @module A hyperchain batch's rows from what the node answered: the key blocks' flags, and per epoch boundary the
 * election contract's `epoch_info()` and `pin_reward_info()`, the schedule and the validators' states, as the
 * FATE decoder of their bytecode gives them (records as tuples, options as `{1: [value]}` / `{0: []}`); the answers
 * that name every validator (a validator's state, the sorted validators) also as their FATE value (chain/fate.ts), read
 * without the bytecode's types. Pure.
 */
import { encode } from '../../chain/encoding.ts';
import { isKind, type FateValue } from '../../chain/fate.ts';
import { keyFlags } from '../../chain/hyperchain-flags.ts';
import type { HyperchainBatch, PinLoad, ProducedRow } from '../../db/writes/hyperchain-rows.ts';
import type { FetchedGeneration } from '../rows/rows.ts';

export type { HyperchainBatch };

/** What the rows read of a generation: its key block (fetched, or as stored) and whether it is whole. */
export type GenerationHead = Pick<FetchedGeneration, 'height' | 'keyBlock' | 'continuesAt'>;

/** `epoch_info()`'s `(epoch, epoch_info)` with its record read. */
export interface EpochInfo {
  readonly epoch: number;
  readonly start: number;
  readonly length: number;
  readonly seed: Uint8Array | undefined;
  readonly stakes: readonly (readonly [string, bigint])[];
}

/** `pin_reward_info()`. */
export interface PinRewardInfo {
  readonly base: bigint;
  readonly current: bigint;
  readonly carryOver: bigint;
}

/** producedRow is what a key block of a hyperchain shows; undefined for one without flags. */
export function producedRow(gen: GenerationHead): ProducedRow | undefined {
  const flags = keyFlags(gen.keyBlock);
  if (!flags || typeof gen.keyBlock.miner !== 'string') return undefined;
  return { height: gen.height, producer: gen.keyBlock.miner, ...flags };
}

/** isEpochBoundary: genesis and every end of epoch fix the next epoch. */
export const isEpochBoundary = (gen: GenerationHead): boolean =>
  gen.continuesAt === undefined && (gen.height === 0 || keyFlags(gen.keyBlock)?.eoe === true);

/** readEpochInfo reads `epoch_info()`'s decoded answer. */
export function readEpochInfo(value: unknown): EpochInfo {
  const [epoch, info] = tupleOf(value, 2, 'epoch_info');
  return { epoch: Number(int(epoch)), ...readEpochRecord(info) };
}

/** readEpochRecord reads an `epoch_info` record (`epoch_info_epoch(e)`'s answer, the second of `epoch_info()`'s). */
export function readEpochRecord(value: unknown): Omit<EpochInfo, 'epoch'> {
  const [start, length, seed, distribution] = tupleOf(value, 4, 'epoch_info record');
  const seedBytes = someOf(seed);
  const stakes = someOf(distribution);
  return {
    start: Number(int(start)),
    length: Number(int(length)),
    seed: seedBytes instanceof Uint8Array ? seedBytes : undefined,
    stakes: Array.isArray(stakes) ? stakes.map((s) => stakeOf(s)) : [],
  };
}

/** readStakes reads `sorted_validators()`: validators and stakes, largest first. */
export function readStakes(value: unknown): (readonly [string, bigint])[] {
  if (!Array.isArray(value)) throw new TypeError('sorted_validators answered no list');
  return value.map((s) => stakeOf(s));
}

/** readFateStakes reads `sorted_validators()`'s FATE value, or gives undefined for anything but a list of stakes. */
export function readFateStakes(value: FateValue): (readonly [string, bigint])[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const stakes: (readonly [string, bigint])[] = [];
  for (const s of value) {
    const stake = isKind(s, 'tuple') && s.items.length === 2 ? fateStake(s.items[0], s.items[1]) : undefined;
    if (!stake) return undefined;
    stakes.push(stake);
  }
  return stakes;
}

/** lockedEpochs are the epochs whose stakes a boundary locks: e + 3 at the end of epoch e - 1, 1-4 at genesis. */
export const lockedEpochs = (height: number, epoch: number): number[] =>
  height === 0 ? [epoch, epoch + 1, epoch + 2, epoch + 3] : [epoch + 3];

/** readPinRewardInfo reads `pin_reward_info()`'s decoded answer. */
export function readPinRewardInfo(value: unknown): PinRewardInfo {
  const [base, current, carryOver] = tupleOf(value, 3, 'pin_reward_info').map(int);
  return { base: base!, current: current!, carryOver: carryOver! };
}

/**
 * readDelegates reads the delegates of `get_validator_state(owner)`'s answer (its validator contract's state), or
 * gives undefined for an answer of another shape: the node's newer MainStaking (after its staking overhaul) answers a
 * validator record without delegates, and a contract this version does not know must not stop the chain's loading.
 */
export function readDelegates(value: unknown): Map<string, bigint> | undefined {
  if (!Array.isArray(value) || value.length !== 8) return undefined;
  const state: unknown = value[7];
  const delegates: unknown = Array.isArray(state) && state.length === 9 ? state[7] : undefined;
  if (!(delegates instanceof Map)) return undefined;
  return new Map([...delegates].map(([k, v]) => [String(k), int(v)]));
}

/**
 * readFateDelegates reads the delegates of `get_validator_state(owner)`'s answer as its FATE value, the shape
 * `readDelegates` reads (a map of address → int in the validator's state), or gives undefined for anything else.
 */
export function readFateDelegates(value: FateValue): Map<string, bigint> | undefined {
  const state = isKind(value, 'tuple') && value.items.length === 8 ? value.items[7] : undefined;
  const delegates = isKind(state, 'tuple') && state.items.length === 9 ? state.items[7] : undefined;
  if (!isKind(delegates, 'map')) return undefined;
  const read = new Map<string, bigint>();
  for (const [k, v] of delegates.entries) {
    const share = fateStake(k, v);
    if (!share) return undefined;
    read.set(...share);
  }
  return read;
}

/** readSchedule reads `validator_schedule(...)`'s list of leaders. */
export function readSchedule(value: unknown, length: number): string[] {
  if (!Array.isArray(value) || value.length !== length || !value.every((v) => typeof v === 'string'))
    throw new TypeError(`validator_schedule answered no list of ${length} addresses`);
  return value as string[];
}

/**
 * pinOf says whether the epoch that a boundary ends was pinned: the election contract carries the pin reward over to
 * the next epoch only when no pin came (`step_eoe`), so a next epoch without carry-over follows a pin.
 */
export function pinOf(gen: GenerationHead, next: PinRewardInfo, endedEpoch: number): PinLoad | undefined {
  if (gen.height === 0 || next.carryOver !== 0n || typeof gen.keyBlock.miner !== 'string') return undefined;
  return { epoch: endedEpoch, leader: gen.keyBlock.miner, height: gen.height };
}

/** encodeSeed renders a seed as the hash it is (ae_mdw's swagger: `kh_`). */
export const encodeSeed = (seed: Uint8Array | undefined): string | null => (seed ? encode('kh', seed) : null);

function tupleOf(value: unknown, size: number, what: string): unknown[] {
  if (!Array.isArray(value) || value.length !== size) throw new TypeError(`${what}: expected a tuple of ${size}`);
  return value;
}

/** someOf is the value of an option's `Some` (undefined for `None`). */
function someOf(option: unknown): unknown {
  if (typeof option !== 'object' || option === null) throw new TypeError('expected an option');
  const some = (option as Record<string, unknown>)['1'];
  return Array.isArray(some) ? some[0] : undefined;
}

function stakeOf(value: unknown): readonly [string, bigint] {
  const [validator, stake] = tupleOf(value, 2, 'stake');
  if (typeof validator !== 'string') throw new TypeError('stake without an address');
  return [validator, int(stake)];
}

/** fateStake reads an address and an int of FATE values (a stake, a delegate's share), or gives undefined. */
function fateStake(
  address: FateValue | undefined,
  amount: FateValue | undefined,
): readonly [string, bigint] | undefined {
  return isKind(address, 'address') && typeof amount === 'bigint' ? [address.id, amount] : undefined;
}

function int(value: unknown): bigint {
  if (typeof value === 'bigint') return value;
  if (typeof value === 'number' && Number.isSafeInteger(value)) return BigInt(value);
  throw new TypeError('expected an integer');
}
