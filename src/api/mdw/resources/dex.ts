/** @module /v3/dex: DEX swaps of the pairs of the DEX factories (known by their code, or DEX_FACTORY), all, by pair or token, and by caller. */
import { swapsPage, type SwapFilter } from '../../../db/queries/dex.ts';
import { LOG_CURSOR } from './cursors.ts';
import { listPage } from './list.ts';
import { page, resource, type ItemsPage, type ResourceRequest, type V3Env } from './resource.ts';
import { parseId, parsePaging } from './mdw-params.ts';
import { swapObject } from '../../../shapes/v3/render-dex.ts';
import { DEX_SWAP } from '../../../shapes/v3/shapes-dex.ts';

/** getDexSwaps: every swap of the DEX factories' pairs. */
export const getDexSwaps = resource(page(DEX_SWAP), (env, req) => swapPage(env, req, {}));

/** getDexSwapsByContractId: the swaps of a pair, or of the pairs of a token. */
export const getDexSwapsByContractId = resource(page(DEX_SWAP), (env, req) =>
  swapPage(env, req, { contract: parseId(req.params.contractId, ['ct']) }),
);

/**
 * getDebugDexSwaps: ae_mdw's debug list of the swaps a token took part in (as either side of a pair), in log order;
 * a pair's own id lists nothing there.
 */
export const getDebugDexSwaps = resource(page(DEX_SWAP), (env, req) =>
  swapPage(env, req, { token: parseId(req.params.contractId, ['ct']) }),
);

/** getAccountDexSwaps: an account's swaps. */
export const getAccountDexSwaps = resource(page(DEX_SWAP), (env, req) =>
  swapPage(env, req, { caller: parseId(req.params.accountId, ['ak']) }),
);

async function swapPage({ pool, cfg }: V3Env, req: ResourceRequest, filter: SwapFilter): Promise<ItemsPage> {
  const paging = parsePaging(req.query);
  return listPage(paging, {
    cursor: LOG_CURSOR,
    read: (window) => swapsPage(pool, { factory: cfg.dex.factory, ...filter }, window),
    key: (s) => s,
    render: (rows) => rows.map((s) => swapObject(s, cfg.dex.wrappedAe)),
  });
}
