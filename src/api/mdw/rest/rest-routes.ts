/**
 * @module The REST adapter of the /v3 resources: the route table's index (route-index.ts), and for an operation's
 * route one adapter that reads the request's parameters, calls the resource and writes its answer (mdw-respond.ts).
 */
import type Koa from 'koa';
import { one } from '../resources/mdw-params.ts';
import type { ResourceRequest, V3Env } from '../resources/resource.ts';
import { txiScopeOfTransactions } from '../resources/scope-bounds.ts';
import { sendAnswer } from './mdw-respond.ts';
import { routerPath, type V3Operation, type V3Route } from './operation.ts';
import { V3_ROUTES } from './operations.ts';
import { RouteIndex } from './route-index.ts';

/** v3RouteIndex is the route table's index: each route by its method under /v3 (paths without it, as in ae_mdw's spec). */
export function v3RouteIndex(routes: readonly V3Route[] = V3_ROUTES): RouteIndex<V3Route> {
  return new RouteIndex(
    routes.map((route) => ({ method: route.method, template: `/v3${routerPath(route.path)}`, route })),
  );
}

/** v3Methods are the methods of the route table's rows, once each (a row without one is a GET's). */
export function v3Methods(routes: readonly V3Route[] = V3_ROUTES): string[] {
  return [...new Set(routes.map((route) => route.method ?? 'GET'))];
}

/** answerOperation answers a request its route found: it calls the operation's resource and writes its answer. */
export async function answerOperation(
  ctx: Koa.Context,
  env: V3Env,
  op: V3Operation,
  params: ResourceRequest['params'],
): Promise<void> {
  const request = op.params.includes('scope') ? await scopedRequest(ctx, env, params) : plainRequest(ctx, params);
  const answer = await op.resource(env, request);
  if (op.noStore) ctx.set('Cache-Control', 'no-store');
  // a page's links carry the parameters the request came with
  sendAnswer(ctx, answer, ctx.query);
}

/** plainRequest is a request's parameters as its route (`params`) and query string give them. */
function plainRequest(ctx: Koa.Context, params: ResourceRequest['params']): ResourceRequest {
  return { params, query: ctx.query, servedAt: servedAt(ctx) };
}

/** scopedRequest reads the parameters of a request to an operation that takes a scope (an export's too). */
export async function scopedRequest(
  ctx: Koa.Context,
  env: V3Env,
  params: ResourceRequest['params'],
): Promise<ResourceRequest> {
  const request = plainRequest(ctx, params);
  // ae_mdw reads `scope=transaction:…` as the txis of those transactions, on every list that takes a scope
  const txiScope = await txiScopeOfTransactions(env.pool, one(ctx.query.scope) ?? '');
  if (txiScope === undefined) return request;
  return { ...request, query: { ...ctx.query, scope: txiScope }, scopeOfTransactions: true };
}

/** servedAt is where the request found the API: /mdw/v3, or the root /v3 (ROOT_V3=mdw). */
function servedAt(ctx: Koa.Context): string {
  return ctx.originalUrl.startsWith('/mdw/') ? '/mdw/v3' : '/v3';
}
