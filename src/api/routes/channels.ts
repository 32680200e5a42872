/** @module Middleware queries over state channels. */
import Router from '@koa/router';
import { activeChannels, channelTransactions } from '../../db/queries/channels.ts';
import { parseId, parsePaging } from '../params.ts';
import { sendJson, type RouteDeps } from '../respond.ts';
import { signedTxList } from '../shapes.ts';

/** channelRoutes registers channels/active and channels/transactions/address/<ch>. */
export function channelRoutes(deps: RouteDeps): Router {
  const { pool } = deps;
  const router = new Router({ prefix: '/middleware/channels' });

  router.get('/active', async (ctx) => {
    sendJson(ctx, await activeChannels(pool, parsePaging(ctx.query)));
  });

  router.get('/transactions/address/:address', async (ctx) => {
    const channelId = parseId(ctx.params.address, ['ch'], 'address');
    sendJson(ctx, signedTxList(await channelTransactions(pool, channelId, parsePaging(ctx.query))));
  });

  return router;
}
