/**
 * @module The block reward (coinbase) of the æternity proof-of-work chain. Pure.
 * The node's table is generated from an inflation curve; `generateCoinbaseSteps` is that
 * generator, and COINBASE_STEPS (coinbase-steps.ts) is its output, checked in because generating
 * takes seconds. A test regenerates it and compares.
 */
import { COINBASE_STEPS } from './coinbase-steps.ts';

/** Aettos per AE. */
const AETTOS = 10n ** 18n;
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
  let supply = INITIAL_TOKENS;
  let last: number | undefined;
  for (let height = 0; ; height++) {
    const reward = rewardAt(height, supply);
    supply += BigInt(reward) * AETTOS;
    if (reward === last) continue;
    if (last !== undefined && (last !== 0 || height < SLOW_START_BLOCKS)) steps.push([height, last]);
    if (reward === 0 && height >= SLOW_START_BLOCKS) return steps;
    last = reward;
  }
}

function rewardAt(height: number, supply: bigint): number {
  if (height === 0) return 0;
  const reward = Math.round((Number(supply) * inflationAt(height)) / (BLOCKS_PER_YEAR * 1e18));
  return Math.max(height < SLOW_START_BLOCKS ? 1 : 0, reward);
}

/** inflationAt is the yearly inflation rate: a linear ramp to 30 % over the slow start, then a slow decline. */
function inflationAt(height: number): number {
  if (height < SLOW_START_BLOCKS) return (height * 0.3) / SLOW_START_BLOCKS;
  const adjusted = height - SLOW_START_BLOCKS;
  return 0.3 / (1 + Math.pow(adjusted / (BLOCKS_PER_YEAR * 0.8), 1.3)) - 0.0003;
}
