/** @module Middleware queries over state channels. */
import { Router } from '../../http/router.ts';
import type { ApiState } from '../../http/state.ts';
import { activeChannels, channelTransactions } from '../../../db/queries/channels.ts';
import { parseId, parseLimitPage } from '../legacy-params.ts';
import { jsonArrayText, sendJson, sendJsonText, type RouteDeps } from '../../http/route-deps.ts';

/** channelRoutes registers channels/active and channels/transactions/address/<ch>. */
export function channelRoutes(deps: RouteDeps): Router {
  const { pool } = deps;
  const router = new Router<ApiState>({ prefix: '/middleware/channels' });

  router.get('/active', async (ctx) => {
    sendJson(ctx, await activeChannels(pool, parseLimitPage(ctx.query)));
  });

  router.get('/transactions/address/:address', async (ctx) => {
    const channelId = parseId(ctx.params.address, ['ch'], 'address');
    sendJsonText(
      ctx,
      jsonArrayText(await channelTransactions(pool, channelId, parseLimitPage(ctx.query)), 'transactions'),
    );
  });

  return router;
}
