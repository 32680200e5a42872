/** @module Every router the API serves, in matching order (fixed paths before parameterised ones). */
import type Router from '@koa/router';
import type { ApiState } from '../http/state.ts';
import type { RouteDeps } from '../http/route-deps.ts';
import { cachedNodeRoutes } from './routes/node-queries.ts';
import { auctionRoutes } from './routes/auctions.ts';
import { chainRoutes } from './routes/chain.ts';
import { channelRoutes } from './routes/channels.ts';
import { contractRoutes } from './routes/contracts.ts';
import { nameRoutes } from './routes/names.ts';
import { openApiRoutes } from './openapi-route.ts';
import { oracleRoutes } from './routes/oracles.ts';
import { transactionRoutes } from './routes/transactions.ts';

/**
 * apiRouters builds the routers of the cached node queries and the middleware queries: the node's /v3
 * too unless ROOT_V3=mdw gives the root /v3 to ae_mdw's API.
 */
export function apiRouters(deps: RouteDeps): Router<ApiState>[] {
  return [
    cachedNodeRoutes(deps, 'v2'),
    ...(deps.cfg.rootV3 === 'node' ? [cachedNodeRoutes(deps, 'v3')] : []),
    chainRoutes(deps),
    transactionRoutes(deps),
    auctionRoutes(deps),
    nameRoutes(deps),
    oracleRoutes(deps),
    contractRoutes(deps),
    channelRoutes(deps),
    openApiRoutes(deps.version),
  ];
}
