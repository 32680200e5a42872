/**
 * @module ae_mdw's /v3 API as one Koa middleware: the SDK's `Middleware` client works against us
 * unchanged, given our URL (or our URL with `/mdw`, as ae_mdw is usually hosted). Its own error
 * shape, `int-as-string`, and 404 `no such route` for any other /v3 path (never forwarded).
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
  router.get('/api', (ctx) => sendValue(ctx, v3ApiDocument(deps.version)));
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

/** v3Api answers every request under /v3 (or /mdw/v3), its errors in ae_mdw's shape, and passes the others on. */
export function v3Api(deps: RouteDeps): ApiMiddleware {
  const routes = exactRoutes(v3Router(deps));
  const asString = intAsString();
  const noSuchRoute = async (): Promise<void> => {
    throw new AppError(ErrorCode.API_NOT_FOUND, 404, 'no such route');
  };
  return async function v3Api(ctx, next) {
    if (ctx.path.startsWith('/mdw/v3/')) ctx.path = ctx.path.slice('/mdw'.length);
    if (!ctx.path.startsWith('/v3/')) return next();
    // the app's error boundary writes what is thrown here as ae_mdw's `{"error": …}`
    ctx.state.aeMdw = true;
    const answer = (): Promise<void> => asString(ctx, () => routes(ctx, noSuchRoute));
    // answers from memory skip the line: under a burst they stay as quick as ever
    await (FROM_MEMORY.has(ctx.path) || !deps.admission ? answer() : deps.admission.run(answer));
  };
}
