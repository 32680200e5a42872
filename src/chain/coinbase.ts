/**
 * @module The block reward (coinbase) of the æternity proof-of-work chain. Pure.
 * The node's table is generated from an inflation curve; `generateCoinbaseSteps` is that
 * generator, and COINBASE_STEPS (coinbase-steps.ts) is its output, checked in because generating
 * takes a second. A test regenerates it and compares.
 */
import { COINBASE_STEPS } from './coinbase-steps.ts';

/** Aettos per AE. */
const AETTOS = 10n ** 18n;
/** AE is AETTOS as a double: 2^18 times 5^18, exact */
const AE = 1e18;
const INITIAL_TOKENS = 276450333499323152460728285n;
const BLOCKS_PER_YEAR = 175_200;
/** The first two days ramp the reward up from 1 AE. */
const SLOW_START_BLOCKS = 960;

/** coinbaseAt is the reward of the key block at `height`, in aettos (exact, never wrapped at 2^64). */
export function coinbaseAt(height: number): bigint {
  let lo = 0;
  let hi = COINBASE_STEPS.length;
  // first step whose (exclusive) end is above the height
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (height < COINBASE_STEPS[mid]![0]) hi = mid;
    else lo = mid + 1;
  }
  const step = COINBASE_STEPS[lo];
  return step === undefined ? 0n : BigInt(step[1]) * AETTOS;
}

/**
 * generateCoinbaseSteps computes the table as `[end, ae]` pairs: heights below `end` (and at or
 * above the previous end) earn `ae` AE. Each height's reward is the inflation rate of that height
 * applied to the supply so far, rounded to whole AE; it ends when the reward reaches 0.
 */
export function generateCoinbaseSteps(): Array<[number, number]> {
  const steps: Array<[number, number]> = [];
  // the supply, exact, as the sum of two doubles (hi + lo; every part an integer, lo below 2^36): each block's reward
  // is added without rounding (TwoSum, then Fast2Sum), and hi + lo rounds the exact supply to the nearest double as
  // Number(bigint) does, at a quarter of the bigint sum's work over the 20 million heights
  let hi = Number(INITIAL_TOKENS);
  let lo = Number(INITIAL_TOKENS - BigInt(hi));
  let last: number | undefined;
  for (let height = 0; ; height++) {
    const reward = rewardAt(height, hi + lo);
    const added = reward * AE; // exact: reward × 5^18 is below 2^53
    const sum = hi + added;
    const addedPart = sum - hi;
    const error = hi - (sum - addedPart) + (added - addedPart);
    const low = lo + error;
    hi = sum + low;
    lo = low - (hi - sum);
    if (reward === last) continue;
    if (last !== undefined && (last !== 0 || height < SLOW_START_BLOCKS)) steps.push([height, last]);
    if (reward === 0 && height >= SLOW_START_BLOCKS) return steps;
    last = reward;
  }
}

/** rewardAt is the reward in AE at a height, of the supply (in aettos) rounded to a double. */
function rewardAt(height: number, supply: number): number {
  if (height === 0) return 0;
  const reward = Math.round((supply * inflationAt(height)) / (BLOCKS_PER_YEAR * AE));
  return Math.max(height < SLOW_START_BLOCKS ? 1 : 0, reward);
}

/** inflationAt is the yearly inflation rate: a linear ramp to 30 % over the slow start, then a slow decline. */
function inflationAt(height: number): number {
  if (height < SLOW_START_BLOCKS) return (height * 0.3) / SLOW_START_BLOCKS;
  const adjusted = height - SLOW_START_BLOCKS;
  return 0.3 / (1 + Math.pow(adjusted / (BLOCKS_PER_YEAR * 0.8), 1.3)) - 0.0003;
}
