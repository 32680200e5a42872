/**
 * @module What the key block that ends an epoch paid each validator. The node's `add_rewards(epoch, rewards)`, a
 * protocol call inside that key block, pays the block and pin rewards of the epoch before the one it ends into the
 * validators' `total_balance`, with no transaction or event; no transaction runs between the block before the key
 * block (its `prev_hash`) and the key block, so `total_balance`'s difference across it is what each one earned in the
 * paid epoch. Only the node's current `validator` record states `total_balance` (validator-state.ts). Where the
 * staking contract answers `get_state()` (staking-state.ts), its one answer at the boundary and one at the block before
 * it state every validator's balance by signing key, the key the rewards name it by. Otherwise asked: the same
 * `get_validator_state` calls as at the boundary, at the block before it, with `epoch_info_epoch` of the paid epoch
 * (in scope there) in the same request; a validator of the paid epoch no longer among the boundary's sorted ones (its
 * stake withdrawn below the minimum since) is asked at both blocks then. Those calls name validators by signing key
 * while the contract looks them up by owner: a validator whose two keys differ gets no row that way.
 */
import type { DryRunCall, DryRunResult } from '../../node/dry-run.ts';
import type { RewardLoad } from '../../db/writes/hyperchain-rows.ts';
import type { BytecodeEncoder } from '../contracts/contract-decoder.ts';
import { readEpochRecord, type GenerationHead } from './epoch-rows.ts';
import { readBalances, type Balances } from './staking-state.ts';
import { readState, type StateRead } from './validator-state.ts';

/** What the reads ask through the reader: dry-runs at a block, calldata encoded once (throws for a missing function). */
export interface RewardsAsk {
  dryRun(block: string, calls: readonly DryRunCall[]): Promise<DryRunResult[]>;
  call(contract: string, code: BytecodeEncoder, fn: string, arg?: string | number): DryRunCall;
}

/** A key block that ends an epoch and pays the rewards of the one before: what both readings of them need. */
interface PayingBoundary {
  readonly staking: string;
  readonly stakingCode: BytecodeEncoder;
  /** the key block that ends an epoch, and the block before it */
  readonly at: string;
  readonly before: string;
  /** the epoch whose rewards it pays */
  readonly epoch: number;
}

/** A boundary that pays rewards, with its sorted validators' states read at it. */
export interface PaidBoundary extends PayingBoundary {
  readonly election: string;
  readonly electionCode: BytecodeEncoder;
  readonly validators: readonly string[];
  /** `validators`' states at the boundary, every one read as a `validator` record or failed */
  readonly after: readonly StateRead[];
}

/** A boundary that pays rewards, with every validator's balance `get_state()` stated at it. */
export interface PaidStateBoundary extends PayingBoundary {
  readonly after: Balances;
}

/** Why no rewards were read: the paid epoch's validators not told, or a state that is no `validator` record. */
export type RewardsUnread = 'paid epoch' | 'record';

/**
 * A validator's `total_balance` as read from one answer: undefined when the call failed (that validator gives no row),
 * null when the answer is another record (no row at all: nothing says the others are read right).
 */
type BalanceRead = bigint | null | undefined;

/**
 * rewardedEpoch is the epoch whose rewards a boundary pays, given the epoch it starts: the end of epoch e - 1 pays
 * e - 2's (the election contract holds an epoch's rewards until the next epoch ends). Genesis and the end of epoch 1
 * pay none (epoch 0 is genesis alone, which earned nothing).
 */
export const rewardedEpoch = (height: number, epoch: number): number | undefined =>
  height === 0 || epoch - 2 < 1 ? undefined : epoch - 2;

/** previousBlock is the block a key block follows (`prev_hash`: the last micro block before it, or a key block). */
export function previousBlock(gen: GenerationHead): string | undefined {
  const prev = gen.keyBlock.prev_hash;
  return typeof prev === 'string' ? prev : undefined;
}

/** readRewards reads what a boundary paid each validator of the paid epoch, or says why it cannot. */
export async function readRewards(ask: RewardsAsk, b: PaidBoundary): Promise<RewardLoad[] | RewardsUnread> {
  const stateCalls = (validators: readonly string[]): DryRunCall[] =>
    validators.map((v) => ask.call(b.staking, b.stakingCode, 'get_validator_state', v));
  let epochCall: DryRunCall;
  try {
    epochCall = ask.call(b.election, b.electionCode, 'epoch_info_epoch', b.epoch);
  } catch {
    return 'paid epoch'; // an election contract without epoch_info_epoch(int)
  }
  const results = await ask.dryRun(b.before, [...stateCalls(b.validators), epochCall]);
  const paid = readPaidValidators(b.electionCode, results.at(-1));
  if (!paid) return 'paid epoch';
  const asked = new Set(b.validators);
  const left = paid.filter((v) => !asked.has(v));
  const [leftBefore, leftAfter] =
    left.length === 0
      ? [[], []]
      : await Promise.all([ask.dryRun(b.before, stateCalls(left)), ask.dryRun(b.at, stateCalls(left))]);
  const balances = (results: readonly DryRunResult[]): BalanceRead[] =>
    results.map((r) => balanceOf(readState(b.stakingCode, r)));
  const rows = rewardRows(b.epoch, [...b.validators, ...left], balances([...results.slice(0, -1), ...leftBefore]), [
    ...b.after.map(balanceOf),
    ...balances(leftAfter),
  ]);
  return rows ?? 'record';
}

/**
 * readStateRewards reads what a boundary paid from `get_state()` at the block before it: one request, every validator
 * (the paid epoch's among them: only `add_rewards` moves a balance there, so the others give no row).
 */
export async function readStateRewards(ask: RewardsAsk, b: PaidStateBoundary): Promise<RewardLoad[] | RewardsUnread> {
  const [result] = await ask.dryRun(b.before, [ask.call(b.staking, b.stakingCode, 'get_state')]);
  const before = readBalances(b.stakingCode, result);
  if (before === null) return 'record';
  if (before === undefined) return []; // the call failed: no row, as a failed get_validator_state gives none
  const validators = [...new Set([...before.keys(), ...b.after.keys()])];
  return rewardRows(
    b.epoch,
    validators,
    validators.map((v) => before.get(v)),
    validators.map((v) => b.after.get(v)),
  )!;
}

/**
 * rewardRows are the rewards of `epoch`: each validator's `total_balance` after the boundary less before it (only the
 * protocol's `add_rewards` moves it there). A difference of 0 gives no row (the API shows 0 for a missing one); a
 * negative one, which only a penalty taken there could give, is kept as the epoch's net. Undefined when an answer is
 * another record.
 */
export function rewardRows(
  epoch: number,
  validators: readonly string[],
  before: readonly BalanceRead[],
  after: readonly BalanceRead[],
): RewardLoad[] | undefined {
  if (before.includes(null) || after.includes(null)) return undefined;
  return validators.flatMap((validator, i) => {
    const [was, is] = [before[i], after[i]];
    if (typeof was !== 'bigint' || typeof is !== 'bigint' || was === is) return [];
    return [{ epoch, validator, reward: is - was }];
  });
}

const balanceOf = (state: StateRead): BalanceRead =>
  state === undefined ? undefined : state?.record === 'validator' ? state.totalBalance : null;

/** readPaidValidators reads the validators of `epoch_info_epoch`'s answer; undefined when it failed or is another shape. */
function readPaidValidators(code: BytecodeEncoder, result: DryRunResult | undefined): string[] | undefined {
  if (!result?.ok) return undefined;
  try {
    return readEpochRecord(code.decodeResult('epoch_info_epoch', result.value, 'ok')).stakes.map(([v]) => v);
  } catch {
    return undefined; // a record of another shape, as aepp-calldata or readEpochRecord refuses it
  }
}
