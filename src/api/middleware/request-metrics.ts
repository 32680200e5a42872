/** @module Counts and times every HTTP request by route template (never by raw path, which would explode label sets). */
import type { ApiMiddleware } from '../state.ts';
import type { ApiMetrics } from '../metrics.ts';

/** requestMetrics records method, route template and status of each request. */
export function requestMetrics(metrics: ApiMetrics): ApiMiddleware {
  return async function requestMetrics(ctx, next) {
    const end = metrics.duration.startTimer();
    try {
      await next();
    } finally {
      const matched = (ctx as { _matchedRoute?: unknown })._matchedRoute;
      const route = typeof matched === 'string' ? matched : ctx.state.forwarded ? 'forwarded' : 'unmatched';
      end({ method: ctx.method, route });
      metrics.requests.inc({ method: ctx.method, route, status: String(ctx.status) });
    }
  };
}
