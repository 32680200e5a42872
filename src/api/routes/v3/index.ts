/**
 * @module ae_mdw's /v3 API as one Koa middleware: the SDK's `Middleware` client works against us
 * unchanged, given our URL (or our URL with `/mdw`, as ae_mdw is usually hosted). Its own error
 * shape, `int-as-string`, and 404 `no such route` for any other /v3 path (never forwarded).
 */
import Router from '@koa/router';
import type Koa from 'koa';
import { httpGet } from '../../../node/http-get.ts';
import { parseJson, type Json } from '../../../chain/json.ts';
import { AppError, ErrorCode } from '../../../errors.ts';
import type { RouteDeps } from '../../respond.ts';
import { Aex141Metadata } from './aex141-metadata.ts';
import { v3Errors } from './errors.ts';
import { exactRoutes } from './exact-routes.ts';
import { routerPath, type V3Env } from './operation.ts';
import { V3_OPERATIONS } from './operations.ts';
import { intAsString } from './respond.ts';
import { StatsSource } from './stats-source.ts';
import { StatusSource } from './status.ts';

/** v3Router builds the route table's operations on one router (paths without the /v3 prefix, as in ae_mdw's spec). */
export function v3Router(deps: RouteDeps): Router {
  const env = v3Env(deps);
  const router = new Router({ prefix: '/v3' });
  for (const op of V3_OPERATIONS) router.get(op.operationId, routerPath(op.path), (ctx) => op.handle(ctx, env));
  return router;
}

/** v3Env is what the handlers share: the pool, the settings and the sources kept across requests. */
function v3Env({ pool, cfg, version, listener }: RouteDeps): V3Env {
  const nodeStatus = async (): Promise<Json> =>
    parseJson((await httpGet(new URL(`${cfg.nodeUrl}/v2/status`), cfg.nodeTimeoutMs)).text);
  return {
    pool,
    cfg,
    version,
    status: new StatusSource(pool, nodeStatus, version),
    stats: new StatsSource(pool, listener),
    metadata: new Aex141Metadata(pool, cfg),
  };
}

/** v3Api answers every request under /v3 (or /mdw/v3) and passes the others on. */
export function v3Api(deps: RouteDeps): Koa.Middleware {
  const routes = exactRoutes(v3Router(deps));
  const errors = v3Errors(deps.log);
  const asString = intAsString();
  const noSuchRoute = async (): Promise<void> => {
    throw new AppError(ErrorCode.API_NOT_FOUND, 404, 'no such route');
  };
  return async function v3Api(ctx, next) {
    if (ctx.path.startsWith('/mdw/v3/')) ctx.path = ctx.path.slice('/mdw'.length);
    if (!ctx.path.startsWith('/v3/')) return next();
    await errors(ctx, () => asString(ctx, () => routes(ctx, noSuchRoute)));
  };
}
