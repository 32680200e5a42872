/** @module ETag and Cache-Control: answers about blocks deeper than the fork window never change, so caches may keep them. */
import { createHash } from 'node:crypto';
import type Koa from 'koa';
import type { Queryable } from '../../db/pool.ts';
import { topHeight } from '../../db/queries/blocks.ts';

/** IMMUTABLE is the Cache-Control of final answers: a year, as they cannot change. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';

/** isFinal is true when a block at `height` is more than `forkWindow` generations below `top`. */
export function isFinal(height: number, top: number | undefined, forkWindow: number): boolean {
  return top !== undefined && top - height >= forkWindow;
}

/** cacheHeaders marks final answers cacheable with an ETag (answering 304 to a matching If-None-Match); others `no-cache`. */
export function cacheHeaders(opts: { db: Queryable; forkWindow: number }): Koa.Middleware {
  return async function cacheHeaders(ctx, next) {
    await next();
    if (ctx.state.forwarded || ctx.status !== 200 || ctx.body === undefined) return;
    const height = ctx.state.aboutHeight as number | undefined;
    if (height === undefined || !isFinal(height, await topHeight(opts.db), opts.forkWindow)) {
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
