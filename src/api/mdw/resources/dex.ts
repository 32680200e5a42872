/** @module /v3/dex: DEX swaps of the configured factory's pairs, all, by pair or token, and by caller. */
import type { RouterContext } from '@koa/router';
import { stringifyJson } from '../../../chain/json.ts';
import { swapsPage, type SwapFilter } from '../../../db/queries/dex.ts';
import { LOG_CURSOR } from './cursors.ts';
import { sendList } from './list.ts';
import type { V3Env, V3Handler } from '../rest/operation.ts';
import { parseId, parsePaging } from './mdw-params.ts';
import { swapObject } from '../../../shapes/v3/render-dex.ts';

/** getDexSwaps: every swap of the configured DEX's pairs. */
export const getDexSwaps: V3Handler = (ctx, env) => sendSwaps(ctx, env, {});

/** getDexSwapsByContractId: the swaps of a pair, or of the pairs of a token. */
export const getDexSwapsByContractId: V3Handler = (ctx, env) =>
  sendSwaps(ctx, env, { contract: parseId(ctx.params.contractId, ['ct']) });

/**
 * getDebugDexSwaps: ae_mdw's debug list of the swaps a token took part in (as either side of a pair), in log order;
 * a pair's own id lists nothing there.
 */
export const getDebugDexSwaps: V3Handler = (ctx, env) =>
  sendSwaps(ctx, env, { token: parseId(ctx.params.contractId, ['ct']) });

/** getAccountDexSwaps: an account's swaps. */
export const getAccountDexSwaps: V3Handler = (ctx, env) =>
  sendSwaps(ctx, env, { caller: parseId(ctx.params.accountId, ['ak']) });

async function sendSwaps(ctx: RouterContext, { pool, cfg }: V3Env, filter: SwapFilter): Promise<void> {
  const paging = parsePaging(ctx.query);
  await sendList(ctx, paging, {
    cursor: LOG_CURSOR,
    read: (walk, from, n) => swapsPage(pool, cfg.dex.factory, filter, walk, from, n),
    key: (s) => s,
    render: (rows) => rows.map((s) => stringifyJson(swapObject(s, cfg.dex.wrappedAe))),
  });
}
