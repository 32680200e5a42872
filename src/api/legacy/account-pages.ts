/** @module Pages of an account's transaction list: deep pages found from the oldest end, with the account's final count and positions kept in the response cache. */
import type { Queryable } from '../../db/connection/pool.ts';
import {
  finalRowsOfAccount,
  transactionsOfAccount,
  transactionsOfAccountFromOldest,
  type Cursor,
  type FinalRows,
} from '../../db/queries/account-transactions.ts';
import type { TxJson, Window } from '../../db/queries/transactions.ts';
import type { ResponseCache } from '../http/response-cache.ts';

/** FROM_OLDEST_MIN_OFFSET: below this many skipped rows the plain scan is cheap and no count is needed. */
export const FROM_OLDEST_MIN_OFFSET = 1000;
/** FINAL_COUNT_MAX_AGE_MS: kept counts and positions are taken again after this long, so the rows counted on top of them stay few. */
const FINAL_COUNT_MAX_AGE_MS = 600_000;

/** What a page read needs; without a response cache every page is read from the newest end. */
export interface AccountPageDeps {
  readonly db: Queryable;
  readonly forkWindow: number;
  readonly cache?: ResponseCache;
}

/**
 * accountTransactionsPage returns the page of the account's list, newest first. `page=N` skips
 * rows, which an index scan from the newest end pays for one by one. A page more than
 * FROM_OLDEST_MIN_OFFSET rows deep is read from the oldest end instead, starting at a kept position
 * at most ANCHOR_EVERY rows before it: the count of the account's rows at final heights and every
 * ANCHOR_EVERY-th of their positions are kept in the response cache (a rollback below them drops
 * them, as it drops final answers); the newer rows are counted with the page. Same rows, same
 * order either way.
 */
export async function accountTransactionsPage(
  deps: AccountPageDeps,
  account: string,
  txType: string | undefined,
  w: Window,
  after?: Cursor,
): Promise<TxJson[]> {
  if (after !== undefined || deps.cache === undefined || w.offset < FROM_OLDEST_MIN_OFFSET) {
    return transactionsOfAccount(deps.db, account, txType, w, after);
  }
  const final = await finalRows(deps, deps.cache, account, txType);
  if (final === undefined) return transactionsOfAccount(deps.db, account, txType, w);
  return transactionsOfAccountFromOldest(deps.db, account, txType, w, final);
}

/** finalRows reads the kept count and positions of the account's final rows, or takes them and keeps them. */
async function finalRows(
  deps: AccountPageDeps,
  cache: ResponseCache,
  account: string,
  txType: string | undefined,
): Promise<FinalRows | undefined> {
  // A space never occurs in a request path, the other keys of the cache.
  const key = `final-rows ${account} ${txType ?? ''}`;
  const kept = cache.get(key);
  if (kept) {
    const memo = JSON.parse(kept.body.toString()) as FinalRows & { at: number };
    if (Date.now() - memo.at < FINAL_COUNT_MAX_AGE_MS) return memo;
  }
  const ticket = cache.ticket();
  const counted = await finalRowsOfAccount(deps.db, account, txType, deps.forkWindow);
  if (counted !== undefined) {
    const body = Buffer.from(JSON.stringify({ ...counted, at: Date.now() }));
    cache.set(key, { body, etag: '', height: counted.height, route: undefined }, ticket);
  }
  return counted;
}
