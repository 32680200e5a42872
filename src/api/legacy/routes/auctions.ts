/** @module Middleware queries over name auctions: running ones, their count, the bids of a name or an account, one auction. */
import { Router } from '../../http/router.ts';
import { topHeight } from '../../../db/queries/blocks.ts';
import {
  bidsOfAccount,
  countRunningAuctions,
  latestAuction,
  runningAuctions,
  type AuctionFilter,
} from '../../../db/queries/auctions.ts';
import { badRequest, notFound } from '../../../base/errors.ts';
import { PAGING_DEFAULTS, parseFlag, parseId, parseInteger, parseLimitPage, parseText } from '../legacy-params.ts';
import { jsonArrayText, sendJsonText, type RouteDeps } from '../../http/route-deps.ts';
import { MAX_NAME_LENGTH } from './names.ts';
import type { ApiContext, ApiState } from '../../http/state.ts';

const SORTS = ['expiration', 'name', 'max_bid'] as const;

/** auctionFilter reads `sort` (expiration, name, max_bid), `reverse` and `length` (bytes, `.chain` included). */
function auctionFilter(query: ApiContext['query']): AuctionFilter {
  const sort = query.sort ?? 'expiration';
  if (typeof sort !== 'string' || !(SORTS as readonly string[]).includes(sort))
    throw badRequest(`sort must be one of ${SORTS.join(', ')}`);
  return {
    sort: sort as AuctionFilter['sort'],
    reverse: parseFlag(query.reverse),
    length: query.length === undefined ? undefined : parseInteger(query.length, 'length', 1, MAX_NAME_LENGTH),
  };
}

/** auctionRoutes registers /middleware/names/auctions/… (fixed paths before `:name`). */
export function auctionRoutes(deps: RouteDeps): Router {
  const { pool } = deps;
  const router = new Router<ApiState>({ prefix: '/middleware/names/auctions' });
  const name = (ctx: ApiContext): string => parseText(ctx.params.name, 'name', MAX_NAME_LENGTH).toLowerCase();

  router.get('/active/count', async (ctx) => {
    const filter = auctionFilter(ctx.query);
    const top = await topHeight(pool);
    const count = top === undefined ? 0 : await countRunningAuctions(pool, top, filter.length);
    sendJsonText(ctx, JSON.stringify({ count, result: 'OK' }));
  });

  router.get('/active', async (ctx) => {
    const filter = auctionFilter(ctx.query);
    const paging = parseLimitPage(ctx.query);
    const top = await topHeight(pool);
    const rows = top === undefined ? [] : await runningAuctions(pool, top, filter, paging);
    sendJsonText(ctx, jsonArrayText(rows.map((json) => ({ json }))));
  });

  router.get('/bids/account/:account', async (ctx) => {
    const account = parseId(ctx.params.account, ['ak'], 'account');
    const rows = await bidsOfAccount(pool, account, parseLimitPage(ctx.query));
    sendJsonText(ctx, jsonArrayText(rows.map((json) => ({ json }))));
  });

  router.get('/bids/:name', async (ctx) => {
    const auction = await latestAuction(pool, name(ctx), parseLimitPage(ctx.query));
    sendJsonText(ctx, jsonArrayText((auction?.bids ?? []).map((json) => ({ json }))));
  });

  router.get('/:name/info', async (ctx) => {
    const auction = await latestAuction(pool, name(ctx), { limit: PAGING_DEFAULTS.maxLimit, offset: 0 });
    if (!auction) throw notFound('no auction for that name');
    sendJsonText(ctx, `{"bids":${jsonArrayText(auction.bids.map((json) => ({ json })))},"info":${auction.entry}}`);
  });

  return router;
}
