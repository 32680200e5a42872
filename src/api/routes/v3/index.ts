/**
 * @module ae_mdw's /v3 API as one Koa middleware, under /mdw as an æternity gateway hosts it: the SDK's
 * `Middleware` client works against us unchanged, given our URL with `/mdw`. Its own error shape,
 * `int-as-string`, and 404 `no such route` for any other path under /mdw (never forwarded).
 */
import Router from '@koa/router';
import type { ApiMiddleware } from '../../state.ts';
import { httpGet } from '../../../node/http-get.ts';
import { parseJson } from '../../../chain/json.ts';
import { AppError, ErrorCode } from '../../../errors.ts';
import type { RouteDeps } from '../../respond.ts';
import { v3ApiDocument } from './api-document.ts';
import { activityRoutes } from './activities.ts';
import { aex9Routes } from './aex9.ts';
import { aex141Routes } from './aex141.ts';
import { blockRoutes } from './blocks.ts';
import { nameRoutes } from './names.ts';
import { oracleRoutes } from './oracles.ts';
import { channelRoutes } from './channels.ts';
import { contractRoutes } from './contracts.ts';
import { dexRoutes } from './dex.ts';
import { exactRoutes } from './exact-routes.ts';
import { intAsString, sendText, sendValue } from './respond.ts';
import { StatusSource } from './status.ts';
import { reportBackgroundFailure } from '../../middleware/error-boundary.ts';
import { statsRoutes } from './stats.ts';
import { transactionRoutes } from './transactions.ts';

/** v3Router builds every /v3 operation on one router (paths without the /v3 prefix, as in ae_mdw's spec). */
export function v3Router(deps: RouteDeps): Router {
  const { pool, cfg } = deps;
  const router = new Router({ prefix: '/v3' });
  const status = new StatusSource(
    pool,
    async () => parseJson((await httpGet(new URL(`${cfg.nodeUrl}/v2/status`), cfg.nodeTimeoutMs)).text),
    deps.version,
    (err) => reportBackgroundFailure(deps.log, deps.outages, 'v3 status refresh', err),
  );
  router.get('/status', async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    sendText(ctx, await status.current());
  });
  // its base is where the document was asked for: /mdw/v3, or the root /v3 with ROOT_V3=mdw
  router.get('/api', (ctx) =>
    sendValue(ctx, {
      ...v3ApiDocument(deps.version),
      servers: [{ url: ctx.originalUrl.startsWith('/mdw/') ? '/mdw/v3' : '/v3' }],
    }),
  );
  blockRoutes(router, pool);
  transactionRoutes(router, pool, cfg);
  nameRoutes(router, pool);
  oracleRoutes(router, pool);
  channelRoutes(router, pool);
  contractRoutes(router, pool);
  activityRoutes(router, pool, cfg.dex);
  dexRoutes(router, pool, cfg.dex);
  aex9Routes(router, pool);
  aex141Routes(router, pool, cfg);
  statsRoutes(router, pool, deps.listener);
  return router;
}

/** The /v3 paths answered from memory, which never wait for a turn to read the database. */
const FROM_MEMORY = new Set(['/v3/status', '/v3/api']);

/**
 * v3Api answers every request under /mdw (ae_mdw's /v3 at /mdw/v3), and under the root /v3 too when
 * ROOT_V3=mdw (a deployment from before the gateway layout), its errors in ae_mdw's shape; it passes the others on.
 */
export function v3Api(deps: RouteDeps): ApiMiddleware {
  const atRoot = deps.cfg.rootV3 === 'mdw';
  const routes = exactRoutes(v3Router(deps));
  const asString = intAsString();
  const noSuchRoute = async (): Promise<void> => {
    throw new AppError(ErrorCode.API_NOT_FOUND, 404, 'no such route');
  };
  return async function v3Api(ctx, next) {
    if (ctx.path === '/mdw' || ctx.path.startsWith('/mdw/')) ctx.path = ctx.path.slice('/mdw'.length) || '/';
    else if (!atRoot || !ctx.path.startsWith('/v3/')) return next();
    // the app's error boundary writes what is thrown here as ae_mdw's `{"error": …}`
    ctx.state.aeMdw = true;
    const answer = (): Promise<void> => asString(ctx, () => routes(ctx, noSuchRoute));
    // answers from memory skip the line: under a burst they stay as quick as ever
    await (FROM_MEMORY.has(ctx.path) || !deps.admission ? answer() : deps.admission.run(answer));
  };
}
