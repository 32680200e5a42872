/**
 * @module ae_mdw's /v3 API as one Koa middleware, under /mdw as an æternity gateway hosts it: the SDK's
 * `Middleware` client works against us unchanged, given our URL with `/mdw`. Its own error shape,
 * `int-as-string`, and 404 `no such route` for any other path under /mdw (never forwarded).
 */
import type Koa from 'koa';
import type { ApiMiddleware } from '../http/state.ts';
import { httpGet, type HttpAnswer } from '../../node/http-get.ts';
import { noAnswer } from '../../node/errors.ts';
import { parseJson, type Json } from '../../chain/json.ts';
import { AppError, ErrorCode } from '../../base/errors.ts';
import type { Admission } from '../http/admission.ts';
import type { RouteDeps } from '../http/route-deps.ts';
import { Aex141Metadata } from './resources/aex141-metadata.ts';
import { GenesisBalances } from './resources/genesis-balances.ts';
import type { V3Env } from './resources/resource.ts';
import { v3ApiDocument } from './rest/api-document.ts';
import { V3_OPERATIONS } from './rest/operations.ts';
import { intAsString } from './rest/mdw-respond.ts';
import { answerOperation, v3RouteIndex } from './rest/rest-routes.ts';
import { AccountExports } from './rest/export-routes.ts';
import { isExport, isHandled, type V3Route } from './rest/operation.ts';
import type { RouteMatch } from './rest/route-index.ts';
import { StatsSource } from './resources/stats-source.ts';
import { StatusSource } from './resources/status-source.ts';
import { HyperchainSource } from './resources/hyperchain-source.ts';
import { STATUS_READ_MAX_MS } from '../http/node-height.ts';

/** v3Env is what the resources share: the pool, the settings and the sources kept across requests. */
export function v3Env({
  pool,
  primary,
  writes,
  cfg,
  log,
  version,
  listener,
  metrics,
  replicas,
  outages,
}: RouteDeps): V3Env {
  const meter = metrics.outbound.meter('node', 'status');
  const timeoutMs = Math.min(cfg.nodeTimeoutMs, STATUS_READ_MAX_MS);
  // a node known away (a forwarded request or a reading found it so, and no probe found it back since) is not asked:
  // the status says at once that it cannot be reached (issue 59: 5 s a request while the node hung); one that stops
  // answering is waited for STATUS_READ_MAX_MS at most, once, and is then known away for the others
  const nodeStatus = async (): Promise<Json> => {
    if (outages?.node?.down) throw new Error('the node is unreachable');
    try {
      return parseJson((await httpGet(new URL(`${cfg.nodeUrl}/v2/status`), timeoutMs, { meter })).text);
    } catch (err) {
      outages?.node?.unavailable(err);
      throw err;
    }
  };
  const readMeter = metrics.outbound.meter('node', 'read');
  const nodeGet = (path: string): Promise<HttpAnswer> =>
    httpGet(new URL(`${cfg.nodeUrl}${path}`), cfg.nodeTimeoutMs, { meter: readMeter }).catch((err: unknown) => {
      throw noAnswer(path, err, cfg.nodeTimeoutMs);
    });
  return {
    pool,
    // hooks are written, so they are read and written on the primary whatever the server reads from, through its pool
    // that writes (the server's others are read-only)
    primary: writes ?? primary ?? pool,
    cfg,
    version,
    status: new StatusSource(pool, nodeStatus, version, replicas),
    hyperchain: new HyperchainSource(pool, nodeGet),
    stats: new StatsSource(pool, listener),
    metadata: new Aex141Metadata(pool, cfg, metrics.outbound),
    genesis: GenesisBalances.forConfig(pool, cfg, log, metrics.outbound),
    outbound: metrics.outbound,
    // the document is made of JSON literals (its schemas are typed as open records)
    apiDocument: v3ApiDocument(V3_OPERATIONS, version) as Record<string, Json>,
  };
}

/** The /v3 paths answered from memory, which never wait for a turn to read the database. */
const FROM_MEMORY = new Set(['/v3/status', '/v3/api']);

/** graphqlPath: GraphQL's path, and GraphiQL's page and assets. */
const graphqlPath = (path: string): boolean =>
  path === '/graphql' || path === '/graphiql' || path.startsWith('/graphiql/');

/**
 * ownTurns: those paths, and GraphQL's, whose operations take their turns themselves, as many as their cost once it is
 * measured (mdw/graphql/endpoint.ts).
 */
const ownTurns = (path: string): boolean => FROM_MEMORY.has(path) || graphqlPath(path);

/**
 * lazyGraphql is the GraphQL endpoint made at the first request to its paths: graphql, graphql-jit and the schema
 * built from them are about 330 modules, 0.2 CPU-s of each server's start, which a server never asked for GraphQL
 * need not pay (its first request does).
 */
function lazyGraphql(env: V3Env, admission: Admission | undefined): ApiMiddleware {
  let endpoint: Promise<ApiMiddleware> | undefined;
  return async (ctx, next) => {
    if (!graphqlPath(ctx.path)) return next();
    endpoint ??= import('./graphql/endpoint.ts').then(({ graphqlApi }) => graphqlApi(env, admission));
    return (await endpoint)(ctx, next);
  };
}

/**
 * v3Api answers every request under /mdw (ae_mdw's /v3 at /mdw/v3), and under the root /v3 too when
 * ROOT_V3=mdw (a deployment from before the gateway layout), its errors in ae_mdw's shape; it passes the others on.
 */
export function v3Api(deps: RouteDeps): ApiMiddleware {
  const atRoot = deps.cfg.rootV3 === 'mdw';
  const env = v3Env(deps);
  const index = v3RouteIndex();
  // GraphQL at /mdw/graphql, its fields answered by the same resources as the routes
  const graphql = lazyGraphql(env, deps.admission);
  const exports = new AccountExports(env, deps.admission, deps.cfg.exports, deps.log);
  const asString = intAsString();
  const routes = async (ctx: Koa.Context, found: RouteMatch<V3Route> | undefined): Promise<void> => {
    if (found !== undefined && isHandled(found.route)) return found.route.handle(ctx, env, found.params);
    if (found === undefined || !('resource' in found.route))
      throw new AppError(ErrorCode.API_NOT_FOUND, 404, 'no such route');
    await answerOperation(ctx, env, found.route, found.params);
  };
  const rest = (ctx: Koa.Context, found: RouteMatch<V3Route> | undefined): Promise<void> =>
    asString(ctx, () => routes(ctx, found));
  const restAndGraphql = (ctx: Koa.Context, found: RouteMatch<V3Route> | undefined): Promise<void> =>
    asString(ctx, () => graphql(ctx, () => routes(ctx, found)));
  return async function v3Api(ctx, next) {
    if (ctx.path === '/mdw' || ctx.path.startsWith('/mdw/')) {
      ctx.path = ctx.path.slice('/mdw'.length) || '/';
      ctx.state.mountedAt = '/mdw';
    } else if (!atRoot || !ctx.path.startsWith('/v3/')) return next();
    // the app's error boundary writes what is thrown here as ae_mdw's `{"error": …}`
    ctx.state.aeMdw = true;
    // one door: the route table's index finds the route; the request is counted under it, refused before its turn
    // too (issue 59); a path of the table asked with another method is refused with the methods it takes
    const found = index.match(ctx.method, ctx.path);
    if (found) {
      ctx.params = found.params;
      ctx._matchedRoute = found.template;
    } else refuseMethod(ctx, index.methods(ctx.path));
    // a route that answers itself and writes (the webhooks API) takes no turn in the line: its request was charged
    // to its key's quota as any other (quota-middleware.ts); one that reads waits its turn as an operation does
    if (found && isHandled(found.route) && found.route.reads !== true) {
      ctx.set('Cache-Control', 'no-store');
      await found.route.handle(ctx, env, found.params);
    }
    // an export admits each of its pages itself (export-routes.ts); a HEAD gets its headers without its walk
    else if (found && isExport(found.route)) await exports.serve(ctx, found.route.export, found.params.id!);
    // answers from memory skip the line: under a burst they stay as quick as ever; GraphQL's paths are all among them
    else if (ownTurns(ctx.path) || !deps.admission) await restAndGraphql(ctx, found);
    else await deps.admission.run(() => rest(ctx, found), 1, ctx.state.arrivedAt);
  };
}

/** refuseMethod refuses a request to a path whose routes take other `methods` (405 with Allow); none: passes. */
function refuseMethod(ctx: Koa.Context, methods: readonly string[]): void {
  if (methods.length === 0) return;
  ctx.set('Allow', methods.join(', '));
  throw new AppError(ErrorCode.API_BAD_REQUEST, 405, `method not allowed: ${ctx.method}`);
}
