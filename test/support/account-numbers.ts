/** @module The number account_transactions names an id by (migration 1000), for tests that write or read its rows. */
import type { Queryable } from '../../src/db/connection/pool.ts';
import { AccountNumbers } from '../../src/db/writes/account-numbers.ts';

/** accountNumber is the id's number, numbering it as the writer would when it has none. */
export async function accountNumber(db: Queryable, id: string): Promise<number> {
  const numbers = new AccountNumbers();
  await numbers.resolve(db, [id]);
  return numbers.number(id);
}

/**
 * ACCOUNT_ROWS_BY_KEY reads account_transactions with each id as its key, for comparing two loads of one chain (each
 * numbers the ids in its own order).
 */
export const ACCOUNT_ROWS_BY_KEY = `SELECT i.key, a.height, a.micro_index, a.tx_index, a.tx_type, a.fields
  FROM account_transactions a JOIN account_ids i ON i.num = a.account ORDER BY a.height, a.micro_index, a.tx_index, i.key`;
