/** @module The accounts' AE balances (migration 1007, kept by the populator's balances area): the richest and the holders. */
import type { Queryable } from '../connection/pool.ts';

/** An account's balance, in aettos as PostgreSQL prints a numeric. */
export interface AccountBalance {
  readonly account: string;
  readonly balance: string;
}

/**
 * richestAccounts lists the `count` highest balances and every account tied with the last of them, highest first:
 * the order among equal balances is ae_mdw's, by the accounts' keys, which the caller sorts (SQL holds their text).
 */
export async function richestAccounts(db: Queryable, count: number): Promise<AccountBalance[]> {
  const { rows } = await db.query<AccountBalance>({
    name: 'mdw_v3_richest_accounts',
    text: `WITH cut AS (SELECT balance FROM account_wealth ORDER BY balance DESC LIMIT 1 OFFSET $1 - 1)
           SELECT account_id AS account, balance::text AS balance FROM account_wealth
            WHERE NOT EXISTS (SELECT 1 FROM cut) OR balance >= (SELECT balance FROM cut)
            ORDER BY balance DESC`,
    values: [count],
  });
  return rows;
}

/** accountBalance is an account's latest stored balance (aettos, as text), or undefined when no height touched it. */
export async function accountBalance(db: Queryable, account: string): Promise<string | undefined> {
  const { rows } = await db.query<{ balance: string }>({
    name: 'mdw_v3_account_balance',
    text: 'SELECT balance::text AS balance FROM account_wealth WHERE account_id = $1',
    values: [account],
  });
  return rows[0]?.balance;
}
