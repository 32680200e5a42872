/**
 * @module The `--mainnet-like` generation profile: a chain with mainnet's shape instead of the default's uniform
 * generations. Mainnet (about 1 139 200 generations and 45 208 121 transactions in mid 2025: ae_mdw issue #2152 and
 * its status example's `mdw_tx_index`) holds 39.7 transactions per generation on average, but in two kinds of
 * stretch: long quiet eras whose generations have a few micro blocks of one to four transactions, and a few busy
 * eras whose generations fill dozens of micro blocks. Spends dominate, and contract calls, each needing one
 * call-info request more to index, are the large minority. The numbers and why: docs/devnode.md.
 */
import type { Random } from '../random.ts';
import type { Traffic } from './mix.ts';
import type { BuiltTx } from '../tx-codec.ts';

/** MAINNET is the size of the real chain the profile imitates (see the module comment for the sources). */
export const MAINNET = { generations: 1_139_200, transactions: 45_208_121 } as const;

/** ERAS the generated range is cut into; BUSY_ERAS of them (2 in 10, spread out) are busy. */
const ERAS = 10;
const BUSY_ERAS: ReadonlySet<number> = new Set([3, 7]);

/** Micro blocks per generation and transactions per micro block, as inclusive ranges, for each kind of era. */
export const QUIET = { microBlocks: [0, 8], transactions: [1, 4] } as const;
export const BUSY = { microBlocks: [10, 40], transactions: [2, 10] } as const;

/** Shares of the transactions drawn as plain spends and as contract calls; the rest follow the devnode's whole mix. */
const SPEND_SHARE = 0.5;
const CALL_SHARE = 0.25;
/**
 * AE_CALL_SHARE of the transactions, among the contract calls, are calls that move AE inside the contracts (the DEX's AE
 * legs, wrapped AE's withdrawals: one internal call each), a fifth of the calls: an assumption, as the reference facts
 * count no internal calls of mainnet (docs/devnode.md).
 */
const AE_CALL_SHARE = 0.05;

/** GenerationShape decides how many micro blocks a generation has, how many transactions each, and which. */
export interface GenerationShape {
  microBlocks(height: number): number;
  transactions(height: number): number;
  next(traffic: Traffic, height: number): BuiltTx;
}

/** isBusy says whether `height` of a chain of `generations` falls in a busy era. Pure. */
export function isBusy(height: number, generations: number): boolean {
  const era = Math.min(ERAS - 1, Math.floor(((height - 1) * ERAS) / Math.max(1, generations)));
  return BUSY_ERAS.has(era);
}

const mean = ([lo, hi]: readonly [number, number]): number => (lo + hi) / 2;

/**
 * expectedShape is what the profile gives per generation on average (micro blocks, transactions, contract calls
 * among them), from the constants above: what a benchmark projects mainnet's request count from. Pure.
 */
export function expectedShape(): { microBlocks: number; transactions: number; callShare: number } {
  const busy = BUSY_ERAS.size / ERAS;
  const microBlocks = (1 - busy) * mean(QUIET.microBlocks) + busy * mean(BUSY.microBlocks);
  const transactions =
    (1 - busy) * mean(QUIET.microBlocks) * mean(QUIET.transactions) +
    busy * mean(BUSY.microBlocks) * mean(BUSY.transactions);
  return { microBlocks, transactions, callShare: CALL_SHARE };
}

/**
 * mainnetLike is the shape of a generated chain of `generations` generations, drawing from the generator's rng;
 * `aeMovingCall` makes a call that moves AE inside the contracts (undefined while it cannot: a plain call instead).
 */
export function mainnetLike(
  generations: number,
  rng: Random,
  aeMovingCall: () => BuiltTx | undefined,
): GenerationShape {
  const draw = (height: number, of: 'microBlocks' | 'transactions'): number => {
    const [lo, hi] = (isBusy(height, generations) ? BUSY : QUIET)[of];
    return rng.int(lo, hi);
  };
  return {
    microBlocks: (height) => draw(height, 'microBlocks'),
    transactions: (height) => draw(height, 'transactions'),
    next(traffic, height) {
      const roll = rng.uint32() / 2 ** 32;
      if (roll < SPEND_SHARE) return traffic.spend(height);
      const aeMoving = roll < SPEND_SHARE + AE_CALL_SHARE ? aeMovingCall() : undefined;
      if (aeMoving) return aeMoving;
      if (roll < SPEND_SHARE + CALL_SHARE) return traffic.contractCall(height) ?? traffic.next(height);
      return traffic.next(height);
    },
  };
}
