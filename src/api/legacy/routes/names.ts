/** @module Middleware queries over names: all, active, search, reverse lookup, by hash. */
import { Router } from '../../http/router.ts';
import type { ApiState } from '../../http/state.ts';
import type { ApiContext } from '../../http/state.ts';
import { topHeight } from '../../../db/queries/blocks.ts';
import { nameStateByHash, names, namesPointingAt, type NameFilter } from '../../../db/queries/names.ts';
import { notFound } from '../../../base/errors.ts';
import { parseFlag, parseId, parseLimitPage, parseText } from '../legacy-params.ts';
import { sendJson, type RouteDeps } from '../../http/route-deps.ts';

const POINTER_PREFIXES = ['ak', 'ct', 'ok', 'ch'] as const;
/** MAX_NAME_LENGTH: an AENS name is at most 253 characters. */
export const MAX_NAME_LENGTH = 253;

/** nameRoutes registers the /middleware/names paths (fixed paths before the `:name` search). */
export function nameRoutes(deps: RouteDeps): Router {
  const { pool } = deps;
  const router = new Router<ApiState>({ prefix: '/middleware/names' });
  const owner = (ctx: ApiContext): string | undefined =>
    ctx.query.owner === undefined ? undefined : parseId(ctx.query.owner, ['ak'], 'owner');

  router.get('/', async (ctx) => {
    const o = owner(ctx);
    const filter: NameFilter = { owner: o, order: o ? 'expires' : 'created' };
    sendJson(ctx, await names(pool, filter, parseLimitPage(ctx.query)));
  });

  router.get('/active', async (ctx) => {
    const o = owner(ctx);
    const top = await topHeight(pool);
    if (top === undefined) return sendJson(ctx, []);
    const filter: NameFilter = {
      owner: o,
      activeAt: top,
      order: o ? 'expires' : 'created',
      reverse: parseFlag(ctx.query.reverse),
    };
    sendJson(ctx, await names(pool, filter, parseLimitPage(ctx.query)));
  });

  router.get('/reverse/:account', async (ctx) => {
    const account = parseId(ctx.params.account, POINTER_PREFIXES, 'account');
    const top = await topHeight(pool);
    if (top === undefined) return sendJson(ctx, []);
    sendJson(ctx, await namesPointingAt(pool, account, top, parseLimitPage(ctx.query)));
  });

  router.get('/hash/:hash', async (ctx) => {
    const hash = parseId(ctx.params.hash, ['nm'], 'hash');
    const name = await nameStateByHash(pool, hash);
    if (!name) throw notFound(`no name with hash ${hash}`);
    sendJson(ctx, { name });
  });

  router.get('/:name', async (ctx) => {
    const text = parseText(ctx.params.name, 'name', MAX_NAME_LENGTH).toLowerCase();
    sendJson(ctx, await names(pool, { contains: text, order: 'expires' }, parseLimitPage(ctx.query)));
  });

  return router;
}
