/** @module The prefunded accounts of a devnode chain that a run populates once and several files load. */
import { DEFAULT_ACCOUNT_BALANCE, deriveKey } from '../../src/devnode/index.ts';

/**
 * seededAccounts are a devnode's three prefunded accounts derived from the chain's seed, not drawn at random: a chain
 * populated once a run (createPopulatedDatabase) is the same chain in every file that loads it only so.
 */
export function seededAccounts(seed: string): { secretKey: string; balance: bigint }[] {
  return [0, 1, 2].map((i) => ({
    secretKey: deriveKey(seed, `account ${i}`).secretKey,
    balance: DEFAULT_ACCOUNT_BALANCE,
  }));
}
