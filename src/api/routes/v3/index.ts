/**
 * @module ae_mdw's /v3 API as one Koa middleware, under /mdw as an æternity gateway hosts it: the SDK's
 * `Middleware` client works against us unchanged, given our URL with `/mdw`. Its own error shape,
 * `int-as-string`, and 404 `no such route` for any other path under /mdw (never forwarded).
 */
import Router from '@koa/router';
import type { ApiMiddleware } from '../../state.ts';
import { httpGet } from '../../../node/http-get.ts';
import { parseJson, type Json } from '../../../chain/json.ts';
import { AppError, ErrorCode } from '../../../errors.ts';
import { graphqlApi } from '../../graphql/endpoint.ts';
import type { RouteDeps } from '../../respond.ts';
import { Aex141Metadata } from './aex141-metadata.ts';
import { exactRoutes } from './exact-routes.ts';
import { routerPath, type V3Env } from './operation.ts';
import { one } from './params.ts';
import { txiScopeOfTransactions } from './scope-bounds.ts';
import { V3_OPERATIONS } from './operations.ts';
import { intAsString, keepGivenQuery } from './respond.ts';
import { StatsSource } from './stats-source.ts';
import { StatusSource } from './status.ts';

/** v3Router builds the route table's operations on one router (paths without the /v3 prefix, as in ae_mdw's spec). */
export function v3Router(deps: RouteDeps, env: V3Env = v3Env(deps)): Router {
  const router = new Router({ prefix: '/v3' });
  for (const op of V3_OPERATIONS) {
    const scoped = op.params.includes('scope');
    router.get(op.operationId, routerPath(op.path), async (ctx) => {
      // ae_mdw reads `scope=transaction:…` as the txis of those transactions, on every list that takes a scope
      const txiScope = scoped ? await txiScopeOfTransactions(env.pool, one(ctx.query.scope) ?? '') : undefined;
      if (txiScope !== undefined) {
        keepGivenQuery(ctx, ctx.query);
        ctx.query = { ...ctx.query, scope: txiScope };
      }
      await op.handle(ctx, env);
    });
  }
  return router;
}

/** v3Env is what the handlers share: the pool, the settings and the sources kept across requests. */
function v3Env({ pool, cfg, version, listener, metrics, replicas }: RouteDeps): V3Env {
  const meter = metrics.outbound.meter('node', 'status');
  const nodeStatus = async (): Promise<Json> =>
    parseJson((await httpGet(new URL(`${cfg.nodeUrl}/v2/status`), cfg.nodeTimeoutMs, { meter })).text);
  return {
    pool,
    cfg,
    version,
    status: new StatusSource(pool, nodeStatus, version, replicas),
    stats: new StatsSource(pool, listener),
    metadata: new Aex141Metadata(pool, cfg, metrics.outbound),
    outbound: metrics.outbound,
  };
}

/** The /v3 paths answered from memory, which never wait for a turn to read the database. */
const FROM_MEMORY = new Set(['/v3/status', '/v3/api']);

/**
 * ownTurns: those paths, GraphiQL's page and assets, and GraphQL, whose operations take their turns themselves, as many
 * as their cost once it is measured (graphql/endpoint.ts).
 */
const ownTurns = (path: string): boolean =>
  FROM_MEMORY.has(path) || path === '/graphql' || path === '/graphiql' || path.startsWith('/graphiql/');

/**
 * v3Api answers every request under /mdw (ae_mdw's /v3 at /mdw/v3), and under the root /v3 too when
 * ROOT_V3=mdw (a deployment from before the gateway layout), its errors in ae_mdw's shape; it passes the others on.
 */
export function v3Api(deps: RouteDeps): ApiMiddleware {
  const atRoot = deps.cfg.rootV3 === 'mdw';
  const env = v3Env(deps);
  const routes = exactRoutes(v3Router(deps, env));
  // GraphQL at /mdw/graphql, its fields answered by the same handlers and sources as the routes
  const graphql = graphqlApi(env, deps.admission);
  const asString = intAsString();
  const noSuchRoute = async (): Promise<void> => {
    throw new AppError(ErrorCode.API_NOT_FOUND, 404, 'no such route');
  };
  return async function v3Api(ctx, next) {
    if (ctx.path === '/mdw' || ctx.path.startsWith('/mdw/')) {
      ctx.path = ctx.path.slice('/mdw'.length) || '/';
      ctx.state.mountedAt = '/mdw';
    } else if (!atRoot || !ctx.path.startsWith('/v3/')) return next();
    // the app's error boundary writes what is thrown here as ae_mdw's `{"error": …}`
    ctx.state.aeMdw = true;
    const answer = (): Promise<void> => asString(ctx, () => graphql(ctx, () => routes(ctx, noSuchRoute)));
    // answers from memory skip the line: under a burst they stay as quick as ever
    await (ownTurns(ctx.path) || !deps.admission ? answer() : deps.admission.run(answer, 1, ctx.state.arrivedAt));
  };
}
