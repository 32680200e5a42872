/**
 * @module Counts and times every HTTP request by route label: the API's path prefix and its route template (never the
 * raw path, which would explode label sets).
 */
import type { ApiContext, ApiMiddleware } from '../state.ts';
import type { ApiMetrics } from '../metrics.ts';

/** What a request's route label is made of, once it was answered. */
export interface RouteOf {
  /** the path the client asked (askedPath) */
  readonly path: string;
  /** the template of the router's route that matched (its path under `mountedAt`) */
  readonly matched?: unknown;
  /** the prefix an API took off before routing (`/mdw`) */
  readonly mountedAt?: string;
  /** a label set by the request's handler where no router matched (GraphQL's) */
  readonly route?: string;
  readonly forwarded?: boolean;
}

/** The node's APIs a forwarded request is counted under; any other path forwarded is plain `forwarded`. */
const FORWARDED_APIS = ['/v2', '/v3'];

/**
 * routeLabel names the route as the client asked it: `/mdw/v3/key-blocks/:id` for ae_mdw's API (whose router sees
 * `/v3/…`), `/v3/…` and `/v2/…` for the node's cached queries, `/middleware/…`, `/mdw/graphql` (with its operation's
 * name where it is a label: mdw/graphql/operation-labels.ts); `/v2 forwarded` or `/v3 forwarded` for what went to the
 * node, else `unmatched`. Pure.
 */
export function routeLabel({ path, matched, mountedAt = '', route, forwarded }: RouteOf): string {
  if (route !== undefined) return route;
  if (typeof matched === 'string') return `${mountedAt}${matched}`;
  if (!forwarded) return 'unmatched';
  const api = FORWARDED_APIS.find((prefix) => path.startsWith(`${prefix}/`));
  return api ? `${api} forwarded` : 'forwarded';
}

/** askedPath is the path of the request as the client sent it (an API under a prefix routes `ctx.path` without it). */
export function askedPath(ctx: ApiContext): string {
  const url = ctx.originalUrl;
  const query = url.indexOf('?');
  return query < 0 ? url : url.slice(0, query);
}

/** CLIENT_GAVE_UP is nginx's status for a client that closed its connection before the answer began. */
export const CLIENT_GAVE_UP = 499;

/**
 * statusLabel is the status a request is counted under: 499 when the client's connection closed before any of the
 * answer was written (Koa's status is then its default 404, or what a handler set for an answer nobody reads), else
 * the status answered. An answer cut after its head keeps the status the client saw. Pure.
 */
export function statusLabel(status: number, res: { destroyed: boolean; headersSent: boolean }): string {
  return String(res.destroyed && !res.headersSent ? CLIENT_GAVE_UP : status);
}

/** requestMetrics records method, route label and status of each request. */
export function requestMetrics(metrics: ApiMetrics): ApiMiddleware {
  return async function requestMetrics(ctx, next) {
    const end = metrics.duration.startTimer();
    ctx.state.arrivedAt = performance.now();
    try {
      await next();
    } finally {
      const { mountedAt, route, forwarded } = ctx.state;
      const matched = (ctx as { _matchedRoute?: unknown })._matchedRoute;
      const label = routeLabel({ path: askedPath(ctx), matched, mountedAt, route, forwarded });
      end({ method: ctx.method, route: label });
      metrics.requests.inc({ method: ctx.method, route: label, status: statusLabel(ctx.status, ctx.res) });
    }
  };
}
