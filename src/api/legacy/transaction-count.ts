/** @module The number of stored transactions up to the top, with the count of final heights kept in the response cache. */
import type { Queryable } from '../../db/pool.ts';
import { countTransactionsIn } from '../../db/queries/stats.ts';
import type { ResponseCache } from '../http/response-cache.ts';

/** What a count needs; without a response cache every count reads the whole index. */
export interface TransactionCountDeps {
  readonly db: Queryable;
  readonly forkWindow: number;
  readonly cache?: ResponseCache | undefined;
}

// A space never occurs in a request path, the other keys of the cache.
const KEY = 'final-count transactions';

/**
 * transactionCountUpTo counts the transactions at heights 0..top. The count up to the final height
 * (top − FORK_WINDOW) cannot change but by a rollback, which drops it from the cache (it is kept at
 * that height); later counts add only the heights above it, so a count costs a few generations of
 * index entries instead of the whole chain's.
 */
export async function transactionCountUpTo(deps: TransactionCountDeps, top: number): Promise<number> {
  const final = top - deps.forkWindow;
  if (deps.cache === undefined || final < 0) return countTransactionsIn(deps.db, -1, top);
  const kept = deps.cache.get(KEY);
  let base = kept ? (JSON.parse(kept.body.toString()) as { height: number; count: number }) : undefined;
  if (base === undefined || base.height > final) base = { height: -1, count: 0 };
  if (base.height < final) {
    const ticket = deps.cache.ticket();
    base = { height: final, count: base.count + (await countTransactionsIn(deps.db, base.height, final)) };
    deps.cache.set(KEY, { body: Buffer.from(JSON.stringify(base)), etag: '', height: final, route: undefined }, ticket);
  }
  return base.count + (await countTransactionsIn(deps.db, base.height, top));
}
