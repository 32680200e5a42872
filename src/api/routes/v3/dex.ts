/** @module /v3/dex: DEX swaps of the configured factory's pairs, all, by pair or token, and by caller. */
import type Router from '@koa/router';
import { stringifyJson } from '../../../chain/json.ts';
import type { Config } from '../../../config.ts';
import type { Pool } from '../../../db/pool.ts';
import { swapsPage, type SwapFilter } from '../../../db/queries/dex.ts';
import { LOG_CURSOR } from './cursors.ts';
import { paginate } from './page.ts';
import { parseId, parsePaging } from './params.ts';
import { swapObject } from '../../../shapes/v3/render-dex.ts';
import { sendPage } from './respond.ts';

type Context = Parameters<Parameters<Router['get']>[1]>[0];

/** dexRoutes registers the DEX operations on the /v3 router. */
export function dexRoutes(router: Router, pool: Pool, dex: Config['dex']): void {
  const swaps = async (ctx: Context, filter: SwapFilter): Promise<void> => {
    const paging = parsePaging(ctx.query);
    const page = await paginate(
      async (walk, from, n) =>
        (await swapsPage(pool, dex.factory, filter, walk, from, n)).map((s) => ({
          key: s,
          item: stringifyJson(swapObject(s, dex.wrappedAe)),
        })),
      { ...paging, cursor: LOG_CURSOR.decode(paging.cursor) },
    );
    sendPage(ctx, page, LOG_CURSOR.encode);
  };
  router.get('/dex/swaps', (ctx) => swaps(ctx, {}));
  router.get('/dex/:contractId/swaps', (ctx) => swaps(ctx, { contract: parseId(ctx.params.contractId, ['ct']) }));
  router.get('/accounts/:accountId/dex/swaps', (ctx) => swaps(ctx, { caller: parseId(ctx.params.accountId, ['ak']) }));
}
