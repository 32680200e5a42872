/**
 * @module CORS_ORIGINS as the one CORS policy of every answer: ours, errors included, and the node's forwarded ones
 * (whose own CORS headers the forwarder drops: proxy.ts withoutNodeCors). A preflight is always answered here, never
 * forwarded: the node would allow any origin.
 */
import cors from '@koa/cors';
import type { ApiContext, ApiMiddleware } from '../state.ts';
import { isListedOrigin } from '../../../config/origins.ts';
import { AE_HEIGHT_HEADER } from './ae-height.ts';

/**
 * corsPolicy sets the CORS headers before the rest of the chain runs (so they stay on an error's answer too) and
 * answers every preflight: an origin the policy lets in gets its headers, any other a 204 without them (the browser
 * then refuses the request it asked about). A preflight is allowed `methods` (corsMethods) and whatever request
 * headers it names (@koa/cors echoes them: `X-API-Key`, `Content-Type`).
 */
export function corsPolicy(allowed: readonly string[], methods: readonly string[]): ApiMiddleware {
  const headers = cors({
    origin: corsOrigin(allowed),
    // Credentials only for origins listed by name: `*` means any page may read, never as the user.
    credentials: (ctx) => isListedOrigin(allowed, ctx.get('Origin')),
    allowMethods: [...methods],
    // Browser clients page with the cursor and revalidate with the ETag; they read the node's headers as its own
    // CORS layer lets them: the chain-state height and the wait a 503 or 429 asks for; and, with API keys on, what is
    // left of their quota.
    exposeHeaders: ['X-Next-Cursor', 'Link', 'ETag', 'Retry-After', AE_HEIGHT_HEADER, 'RateLimit', 'RateLimit-Policy'],
  });
  return function corsPolicy(ctx, next) {
    if (ctx.method !== 'OPTIONS' || ctx.get('Access-Control-Request-Method') === '') return headers(ctx, next);
    // a preflight @koa/cors does not answer itself (an origin the policy keeps out) is answered here, never forwarded
    return headers(ctx, async () => {
      ctx.status = 204;
    });
  };
}

/**
 * corsMethods are the methods a page may send: GET and its HEAD, POST (GraphQL, the node's transactions), OPTIONS,
 * and those of the route table's `routes` (`DELETE /mdw/v3/webhooks/{id}`), once each. Pure.
 */
export function corsMethods(routes: readonly string[]): string[] {
  return [...new Set(['GET', 'HEAD', 'POST', ...routes, 'OPTIONS'])];
}

/**
 * corsOrigin is `*` when any origin is allowed, else the request's Origin when it is listed (a
 * listed origin is echoed, with `Vary: Origin`, so that credentials may go with it).
 */
export function corsOrigin(allowed: readonly string[]): (ctx: ApiContext) => string {
  return (ctx) => {
    const origin = ctx.get('Origin');
    if (isListedOrigin(allowed, origin)) return origin;
    return allowed.includes('*') ? '*' : '';
  };
}
