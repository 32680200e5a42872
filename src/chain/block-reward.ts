/**
 * @module The reward of a generation's beneficiary, as this middleware states it everywhere
 * (`/middleware/reward`, `/v3` key blocks' `beneficiary_reward`, `/v3/stats` block rewards). Pure.
 */
import { coinbaseAt } from './coinbase.ts';

/**
 * blockReward is the coinbase of the key block at `height` plus the beneficiary's fee share: 60 % of
 * the previous generation's fees and 40 % of its own, in whole aettos (a fraction is dropped).
 */
export function blockReward(height: number, previousFees: bigint, ownFees: bigint): bigint {
  return coinbaseAt(height) + (6n * previousFees + 4n * ownFees) / 10n;
}
