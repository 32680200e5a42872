/**
 * @module The REST adapter of the /v3 resources, one for every operation of the route table: it reads the request's
 * parameters, calls the operation's resource and writes its answer (mdw-respond.ts).
 */
import Router from '@koa/router';
import type Koa from 'koa';
import { one } from '../resources/mdw-params.ts';
import type { ResourceRequest, V3Env } from '../resources/resource.ts';
import { txiScopeOfTransactions } from '../resources/scope-bounds.ts';
import { sendAnswer } from './mdw-respond.ts';
import { routerPath } from './operation.ts';
import { V3_OPERATIONS } from './operations.ts';
import { routeBalancesPost } from './balances-post.ts';

/** restRouter builds the route table's operations on one router (paths without the /v3 prefix, as in ae_mdw's spec). */
export function restRouter(env: V3Env): Router {
  const router = new Router({ prefix: '/v3' });
  for (const op of V3_OPERATIONS) {
    const scoped = op.params.includes('scope');
    router.get(op.operationId, routerPath(op.path), async (ctx) => {
      const request = scoped ? await scopedRequest(ctx, env, ctx.params) : plainRequest(ctx, ctx.params);
      const answer = await op.resource(env, request);
      if (op.noStore) ctx.set('Cache-Control', 'no-store');
      // a page's links carry the parameters the request came with
      sendAnswer(ctx, answer, ctx.query);
    });
  }
  routeBalancesPost(router, env);
  return router;
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
