/** @module Answers final cached node reads (/v2, /v3) from memory; stores the ones the routes and cache-headers mark cacheable and final. */
import type Koa from 'koa';
import type { ApiContext, ApiMiddleware } from '../state.ts';
import { COMPRESS_THRESHOLD, encodeBody, plainEncoding } from '../content-encoding.ts';
import type { CachedAnswer, ResponseCache } from '../response-cache.ts';
import { intAsStringParam } from '../node-params.ts';
import { IMMUTABLE } from './cache-headers.ts';
import { textProblem } from './valid-text.ts';

/**
 * responseCache sits outside cacheHeaders: a stored answer is one cacheHeaders judged final
 * (Cache-Control immutable, with its ETag), and a memory hit repeats exactly those headers.
 * Routes offer their body as `ctx.state.cacheableJson`; "current" answers never do.
 * It also sits outside the error boundary and `compress` (the app's koa-compress, handed in), so a
 * memory hit passes nothing it does not need: it adds the `Vary: Accept-Encoding` that `compress`
 * adds, and for an Accept-Encoding it does not read itself it runs `compress` on the stored body.
 * `nodeV3` says whether the root /v3 is the node's API (ROOT_V3=node), whose answers are kept too.
 */
export function responseCache(cache: ResponseCache, compress: Koa.Middleware, nodeV3: boolean): ApiMiddleware {
  return async function responseCache(ctx, next) {
    const key =
      ctx.method === 'GET' || ctx.method === 'HEAD' ? answerKey(ctx.path, ctx.querystring, nodeV3) : undefined;
    if (key === undefined) return next();
    // a query string the API refuses (validText, inside) must not be answered from memory
    if (textProblem(ctx.querystring) !== undefined) return next();
    const cached = cache.get(key);
    if (cached) {
      if (cached.route !== undefined) (ctx as { _matchedRoute?: string })._matchedRoute = cached.route;
      ctx.state.aboutHeight = cached.height;
      ctx.set('Cache-Control', IMMUTABLE);
      ctx.set('ETag', cached.etag);
      ctx.vary('Accept-Encoding');
      ctx.status = 200;
      if (ctx.fresh) {
        ctx.status = 304;
        return;
      }
      ctx.type = 'application/json';
      if (!answerStored(ctx, cache, key, cached)) await compress(ctx, async () => {});
      return;
    }
    const ticket = cache.ticket();
    await next();
    const json: unknown = ctx.state.cacheableJson;
    if (typeof json !== 'string') return;
    cache.recordMiss();
    const height = ctx.state.aboutHeight;
    const etag = ctx.response.get('ETag');
    if (height === undefined || ctx.response.get('Cache-Control') !== IMMUTABLE || !etag) return;
    const matched = (ctx as { _matchedRoute?: unknown })._matchedRoute;
    cache.set(
      key,
      { body: ownBuffer(json), etag, height, route: typeof matched === 'string' ? matched : undefined },
      ticket,
    );
  };
}

/**
 * answerKey is a node query's key in memory: its path, and in /v3 whether it asks for `int-as-string` (the only
 * parameter that changes the node's answer there); undefined where no answer is kept (an invalid flag is the route's 400).
 */
export function answerKey(path: string, querystring: string, nodeV3: boolean): string | undefined {
  if (path.startsWith('/v2/')) return path;
  if (!nodeV3 || !path.startsWith('/v3/')) return undefined;
  const flag = intAsStringParam(querystring);
  if (typeof flag === 'object') return undefined;
  return flag ? `${path}?int-as-string` : path;
}

/**
 * answerStored sets the body of a memory hit. When the encoding koa-compress would choose is plain
 * to see (no Accept-Encoding, or a list of tokens as browsers send), the body goes out in it
 * without koa-compress: compressed once and kept with the entry, where koa-compress would stream
 * it through zlib on every request. False when the choice is left to koa-compress (other
 * Accept-Encoding values, HEAD).
 */
function answerStored(ctx: ApiContext, cache: ResponseCache, key: string, cached: CachedAnswer): boolean {
  const encoding = ctx.method === 'GET' ? plainEncoding(ctx.get('Accept-Encoding')) : undefined;
  if (encoding === undefined) {
    ctx.body = cached.body;
    return false;
  }
  if (encoding === 'identity' || cached.body.length < COMPRESS_THRESHOLD) {
    ctx.body = cached.body;
    return true;
  }
  ctx.set('Content-Encoding', encoding);
  ctx.body = cache.encodedBody(key, cached, encoding, (body) => encodeBody(encoding, body));
  return true;
}

/**
 * ownBuffer copies text into a buffer of its own: Buffer.from slices small buffers out of a shared
 * 8 KiB pool, and a long-lived slice would keep the whole slab alive beyond the cache's byte count.
 */
function ownBuffer(text: string): Buffer {
  const buffer = Buffer.allocUnsafeSlow(Buffer.byteLength(text));
  buffer.write(text);
  return buffer;
}
