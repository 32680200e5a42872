/**
 * @module A hyperchain's consensus arithmetic as the node computes it (aec_consensus_hc, HCElection.aes): the
 * stake-weighted leader schedule of an epoch from its seed, the parent-chain height an epoch's seed comes from, the
 * key header's HOLE and EOE flags and its target. Pure.
 */
import { hash } from '../../chain/encoding.ts';
import { bytesToInt } from '../../chain/rlp.ts';

/** Stake is a validator (its signing key, `ak_`) and the stake that weighs it in a schedule. */
export type Stake = readonly [validator: string, stake: bigint];

/** HOLE_FLAG: bit 29 of a key header's flags, a slot whose scheduled leader produced nothing (blocks.hrl). */
export const HOLE_FLAG = 0x20000000;
/** EOE_FLAG: bit 28, the last block of an epoch that reached its finalisation quorum (blocks.hrl). */
export const EOE_FLAG = 0x10000000;

/**
 * validatorSchedule is HCElection's `validator_schedule(seed, validators, length)`: blake2b of the seed, then for
 * each slot blake2b of the previous hash, read as an unsigned big-endian integer modulo the total stake, picks the
 * validator whose cumulative stake passes it (in the list's order, which is `sorted_validators`').
 */
export function validatorSchedule(seed: Uint8Array, validators: readonly Stake[], length: number): string[] {
  const total = validators.reduce((sum, [, stake]) => sum + stake, 0n);
  if (total <= 0n) throw new RangeError('a schedule needs a positive total stake');
  const schedule: string[] = [];
  let current = hash(seed);
  for (let slot = 0; slot < length; slot++) {
    current = hash(current);
    schedule.push(pickValidator(bytesToInt(current) % total, validators));
  }
  return schedule;
}

function pickValidator(pick: bigint, validators: readonly Stake[]): string {
  let rest = pick;
  for (const [validator, stake] of validators) {
    if (rest < stake) return validator;
    rest -= stake;
  }
  throw new RangeError('pick beyond the total stake');
}

/**
 * entropyHeight is the parent-chain height whose block hash seeds child epoch `epoch`: the first block of parent
 * epoch max(0, epoch − 3) (aec_consensus_hc:entropy_height/1).
 */
export function entropyHeight(epoch: number, parentEpochLength: number, parentStartHeight: number): number {
  return Math.max(0, epoch - 3) * parentEpochLength + parentStartHeight;
}

/**
 * keyTarget is a hyperchain key header's target (its difficulty): the previous key block's plus one for a produced
 * block, unchanged for a hole, and the height itself at an end of epoch (aec_block_hole_candidate:target/4).
 */
export function keyTarget(previous: number, height: number, flags: { hole: boolean; eoe: boolean }): number {
  if (flags.eoe) return height;
  return previous + (flags.hole ? 0 : 1);
}

/** hcFlags is the HOLE and EOE bits of a key header (the key tag and "info present" are added with the header). */
export function hcFlags(flags: { hole: boolean; eoe: boolean }): number {
  return (flags.hole ? HOLE_FLAG : 0) | (flags.eoe ? EOE_FLAG : 0);
}

/** sortValidators orders stakes as MainStaking's `sorted_validators`: the largest stake first, ties by address bytes. */
export function sortValidators(stakes: readonly Stake[], addressBytes: (id: string) => Uint8Array): Stake[] {
  return [...stakes].sort(([a, x], [b, y]) =>
    x === y ? Buffer.compare(Buffer.from(addressBytes(a)), Buffer.from(addressBytes(b))) : x > y ? -1 : 1,
  );
}
