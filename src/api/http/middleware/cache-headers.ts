/** @module ETag and Cache-Control: answers about blocks deeper than the fork window never change, so caches may keep them. */
import { createHash } from 'node:crypto';
import type { ApiMiddleware } from '../state.ts';
import type { Queryable } from '../../../db/connection/pool.ts';
import { topHeight } from '../../../db/queries/blocks.ts';

/** IMMUTABLE is the Cache-Control of final answers: a year, as they cannot change. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';

/** isFinal is true when a block at `height` is more than `forkWindow` generations below `top`. */
export function isFinal(height: number, top: number | undefined, forkWindow: number): boolean {
  return top !== undefined && top - height >= forkWindow;
}

/** TOP_MEMO_MS: how long the top height is reused for finality checks. */
const TOP_MEMO_MS = 1000;

/**
 * cacheHeaders marks final answers cacheable with an ETag (answering 304 to a matching
 * If-None-Match); others `no-cache`. The top is re-read at most once a second: a top a second
 * old can only under-state finality (the chain grows; a fork is never deeper than the window).
 */
export function cacheHeaders(opts: { db: Queryable; forkWindow: number }): ApiMiddleware {
  let memo: { top: number | undefined; at: number } | undefined;
  const currentTop = async (): Promise<number | undefined> => {
    const now = Date.now();
    if (!memo || now - memo.at > TOP_MEMO_MS) memo = { top: await topHeight(opts.db), at: now };
    return memo.top;
  };
  return async function cacheHeaders(ctx, next) {
    await next();
    if (ctx.state.forwarded || ctx.status !== 200 || ctx.body === undefined || ctx.response.get('Cache-Control'))
      return;
    const height = ctx.state.aboutHeight;
    if (height === undefined || !isFinal(height, await currentTop(), opts.forkWindow)) {
      ctx.set('Cache-Control', 'no-cache');
      return;
    }
    const text = typeof ctx.body === 'string' ? ctx.body : JSON.stringify(ctx.body);
    ctx.set('Cache-Control', IMMUTABLE);
    ctx.set('ETag', `"${createHash('sha256').update(text).digest('base64url').slice(0, 27)}"`);
    if (ctx.fresh) {
      ctx.status = 304;
      ctx.body = null;
    }
  };
}
