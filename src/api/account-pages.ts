/** @module Pages of an account's transaction list: deep pages found from the oldest end, with the account's final count kept in the response cache. */
import type { Queryable } from '../db/pool.ts';
import {
  finalCountOfAccount, transactionsOfAccount, transactionsOfAccountFromOldest,
  type Cursor, type FinalCount, type TxJson, type Window,
} from '../db/queries/transactions.ts';
import type { ResponseCache } from './response-cache.ts';

/** FROM_OLDEST_MIN_OFFSET: below this many skipped rows the plain scan is cheap and no count is needed. */
export const FROM_OLDEST_MIN_OFFSET = 1000;
/** FINAL_COUNT_MAX_AGE_MS: a kept count is made again after this long, so the rows counted on top of it stay few. */
const FINAL_COUNT_MAX_AGE_MS = 600_000;

/** What a page read needs; without a response cache every page is read from the newest end. */
export interface AccountPageDeps {
  readonly db: Queryable;
  readonly forkWindow: number;
  readonly cache?: ResponseCache;
}

/**
 * accountTransactionsPage returns the page of the account's list, newest first. `page=N` skips
 * rows, which an index scan from the newest end pays for one by one; a page in the older half of
 * a long list is read from the oldest end instead, which needs the list's length: the count of
 * final heights is kept in the response cache (a rollback below them drops it, as it drops final
 * answers), the newer rows are counted with the page. Same rows, same order either way.
 */
export async function accountTransactionsPage(
  deps: AccountPageDeps, account: string, txType: string | undefined, w: Window, after?: Cursor,
): Promise<TxJson[]> {
  if (after !== undefined || deps.cache === undefined || w.offset < FROM_OLDEST_MIN_OFFSET) {
    return transactionsOfAccount(deps.db, account, txType, w, after);
  }
  const final = await finalCount(deps, deps.cache, account, txType);
  if (final === undefined || w.offset <= final.count / 2) return transactionsOfAccount(deps.db, account, txType, w);
  return transactionsOfAccountFromOldest(deps.db, account, txType, w, final);
}

/** finalCount reads the kept count of the account's final rows, or counts them and keeps the count. */
async function finalCount(deps: AccountPageDeps, cache: ResponseCache, account: string, txType: string | undefined): Promise<FinalCount | undefined> {
  // A space never occurs in a request path, the other keys of the cache.
  const key = `final-count ${account} ${txType ?? ''}`;
  const kept = cache.get(key);
  if (kept) {
    const memo = JSON.parse(kept.body.toString()) as FinalCount & { at: number };
    if (Date.now() - memo.at < FINAL_COUNT_MAX_AGE_MS) return memo;
  }
  const ticket = cache.ticket();
  const counted = await finalCountOfAccount(deps.db, account, txType, deps.forkWindow);
  if (counted !== undefined) {
    const body = Buffer.from(JSON.stringify({ ...counted, at: Date.now() }));
    cache.set(key, { body, etag: '', height: counted.height, route: undefined }, ticket);
  }
  return counted;
}
