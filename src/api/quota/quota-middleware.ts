/**
 * @module The HTTP API's quota check (API_KEYS on): a request's key (X-API-Key or apikey=) or address picks its tier,
 * its cost (route-cost.ts) is counted against the tier's quotas in memory, and every answer carries RateLimit-Policy
 * and RateLimit. An unknown or revoked key is refused 401, a request past its quota 429 with Retry-After: answered
 * here, before the memory hits of the response cache, in the error boundary's shapes.
 */
import { AppError, ErrorCode } from '../../base/errors.ts';
import { challenge, errorBody } from '../http/middleware/error-boundary.ts';
import type { ApiContext, ApiMiddleware } from '../http/state.ts';
import type { ApiAccess, Caller } from './api-access.ts';
import { apikeyParameter, presentedKey } from './key-text.ts';
import { routeCost } from './route-cost.ts';

/** The paths of probes and scrapes, never counted nor refused. */
const UNCOUNTED = new Set(['/healthz', '/readyz', '/metrics']);

/** apiQuota is the middleware; `access` has been started. */
export function apiQuota(access: ApiAccess): ApiMiddleware {
  return async function apiQuota(ctx, next) {
    if (UNCOUNTED.has(ctx.path)) return next();
    let caller: Caller;
    try {
      caller = access.caller(
        presentedKey(ctx.headers['x-api-key'], apikeyParameter(ctx.url)),
        ctx.req.socket.remoteAddress,
        ctx.headers['x-forwarded-for'],
      );
    } catch (err) {
      return refuse(ctx, err as AppError);
    }
    ctx.state.apiKey = caller.apiKey;
    ctx.set('RateLimit-Policy', caller.policy);
    // what the request took so far: a window it alone used lets its later charges in whatever they cost
    let spent = 0;
    const charge = (units: number): void => {
      const { decision, rateLimit } = access.charge(caller, units, spent);
      ctx.set('RateLimit', rateLimit);
      if (decision.allowed) {
        spent += units;
        return;
      }
      ctx.set('Retry-After', String(decision.retryAfter));
      const which = decision.windows.find((w) => w.remaining === 0)?.window.policy ?? 'second';
      throw new AppError(
        ErrorCode.API_QUOTA_EXCEEDED,
        429,
        `quota exceeded: ${caller.apiKey ? `API key ${caller.apiKey.id}` : 'your address'} (tier ${caller.tier.name}) has used its quota per ${which}; retry after ${decision.retryAfter} s`,
      );
    };
    try {
      charge(routeCost(ctx.query));
    } catch (err) {
      return refuse(ctx, err as AppError);
    }
    ctx.state.quota = { charge, hold: (kind) => access.hold(caller, kind) };
    return next();
  };
}

/** refuse answers a refusal here, in the shape the error boundary gives the API the path belongs to. */
function refuse(ctx: ApiContext, e: AppError): void {
  ctx.state.aeMdw = ctx.path === '/mdw' || ctx.path.startsWith('/mdw/');
  ctx.state.graphql = ctx.path === '/mdw/graphql';
  ctx.status = e.status;
  ctx.set('Cache-Control', 'no-store');
  if (e.status === 401) challenge(ctx);
  ctx.body = errorBody(ctx, e);
}
