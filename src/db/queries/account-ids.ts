/**
 * @module The numbers account_transactions names ids by (migration 1000): account_ids keeps each id's key (its tag and
 * 32 bytes, src/chain/id-key.ts) once, and a 4-byte number stands for it in the big tables. A number is
 * 8 × n + the key's tag, so the kind of id a number stands for is `num & 7`.
 */
import { KEY_TAGS } from '../../chain/id-key.ts';

/** ID_NUMBER_COLUMNS: the columns of each table that hold ids' numbers. */
export const ID_NUMBER_COLUMNS: Readonly<Record<string, readonly string[]>> = {
  account_transactions: ['account'],
  account_tx_counts: ['account'],
  account_pairs: ['sender', 'recipient'],
  stats_accounts: ['account'],
  stats_active_accounts: ['account'],
};

/** accountNumberSql is the SQL of the number of the id whose key is the parameter `param` (NULL if none: no row matches). */
export function accountNumberSql(param: string): string {
  return `(SELECT num FROM account_ids WHERE key = ${param})`;
}

/** isAccountSql is the SQL that tests whether the number `column` stands for an account (ak_) id. */
export function isAccountSql(column: string): string {
  return `${column} & 7 = ${KEY_TAGS.ak}`;
}
