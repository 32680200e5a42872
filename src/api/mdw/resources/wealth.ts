/** @module /v3/wealth: the accounts with the most AE, as ae_mdw ranks them. */
import { idBytes } from '../../../chain/id-cache.ts';
import { richestAccounts, type AccountBalance } from '../../../db/queries/wealth.ts';
import { resource } from './resource.ts';

/** WEALTH_RANK_SIZE: how many accounts ae_mdw lists (its WEALTH_RANK_SIZE's default); it takes no paging. */
export const WEALTH_RANK_SIZE = 200;

/**
 * rankAccounts orders balances as ae_mdw's ranking does, highest first and, among equal balances, the account whose
 * key is greater first, and keeps the first `count`. Pure.
 */
export function rankAccounts(rows: readonly AccountBalance[], count: number): AccountBalance[] {
  const keyed = rows.map((r) => ({ r, balance: BigInt(r.balance), key: Buffer.from(idBytes(r.account)) }));
  keyed.sort((a, b) => (a.balance === b.balance ? Buffer.compare(b.key, a.key) : a.balance > b.balance ? -1 : 1));
  return keyed.slice(0, count).map((k) => k.r);
}

/** getWealth: `[{account, balance}]`, the richest accounts, balances as exact integers. */
export const getWealth = resource('Wealth', async ({ pool }) => {
  const ranked = rankAccounts(await richestAccounts(pool, WEALTH_RANK_SIZE), WEALTH_RANK_SIZE);
  return ranked.map((r) => ({ account: r.account, balance: BigInt(r.balance) }));
});
