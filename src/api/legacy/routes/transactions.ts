/** @module Middleware queries over transactions: per account, between two accounts, per height interval, daily rates. */
import { Router } from '../../http/router.ts';
import type { ApiState } from '../../http/state.ts';
import type { Prefix } from '../../../chain/encoding.ts';
import { countTransactionsOfAccount } from '../../../db/queries/account-transactions.ts';
import { transactionsFromTo } from '../../../db/queries/transactions-from-to.ts';
import { transactionsInInterval } from '../../../db/queries/transactions.ts';
import { spendRates } from '../../../db/queries/spend-rates.ts';
import { DAY_MS, utcDay } from '../../../chain/stats-intervals.ts';
import { badRequest } from '../../../base/errors.ts';
import { accountTransactionsPage } from '../account-pages.ts';
import {
  formatCursor,
  parseCursor,
  parseDate,
  parseHeight,
  parseId,
  parseLimitPage,
  parseTxType,
} from '../legacy-params.ts';
import { jsonArrayText, sendJson, sendJsonText, type RouteDeps } from '../../http/route-deps.ts';

/** ACCOUNT_PREFIXES: every kind of id a transaction can reference, so each has a transaction list. */
const ACCOUNT_PREFIXES: readonly Prefix[] = ['ak', 'ct', 'ok', 'ch', 'nm', 'oq'];
const RECIPIENT_PREFIXES: readonly Prefix[] = ['ak', 'ct', 'ok', 'nm'];
/** MAX_RATE_DAYS bounds one /transactions/rate request. */
const MAX_RATE_DAYS = 400;

/** transactionRoutes registers the /middleware/transactions paths. */
export function transactionRoutes(deps: RouteDeps): Router {
  const { pool } = deps;
  const pages = { db: pool, forkWindow: deps.cfg.forkWindow, cache: deps.responseCache };
  const router = new Router<ApiState>({ prefix: '/middleware/transactions' });

  router.get('/account/:account/count', async (ctx) => {
    const account = parseId(ctx.params.account, ACCOUNT_PREFIXES, 'account');
    sendJson(ctx, { count: await countTransactionsOfAccount(pool, account, parseTxType(ctx.query)) });
  });

  router.get('/account/:sender/to/:receiver', async (ctx) => {
    const sender = parseId(ctx.params.sender, ['ak'], 'sender');
    const receiver = parseId(ctx.params.receiver, RECIPIENT_PREFIXES, 'receiver');
    sendJsonText(
      ctx,
      jsonArrayText(await transactionsFromTo(pool, sender, receiver, parseLimitPage(ctx.query)), 'transactions'),
    );
  });

  router.get('/account/:account', async (ctx) => {
    const account = parseId(ctx.params.account, ACCOUNT_PREFIXES, 'account');
    const cursor = parseCursor(ctx.query);
    const paging = parseLimitPage(ctx.query);
    const rows = await accountTransactionsPage(pages, account, parseTxType(ctx.query), paging, cursor);
    const last = rows.at(-1);
    if (last && rows.length === paging.limit) {
      // Keyset continuation: constant cost however deep the client reads (page costs grow with depth).
      const next = formatCursor(last);
      const query = new URLSearchParams({ ...(ctx.query as Record<string, string>), cursor: next });
      query.delete('page');
      ctx.set('X-Next-Cursor', next);
      ctx.set('Link', `<${ctx.path}?${query.toString()}>; rel="next"`);
    }
    sendJsonText(ctx, jsonArrayText(rows));
  });

  router.get('/interval/:from/:to', async (ctx) => {
    const from = parseHeight(ctx.params.from, 'from');
    const to = parseHeight(ctx.params.to, 'to');
    if (from > to) throw badRequest('from must not be above to');
    const rows = await transactionsInInterval(pool, from, to, parseTxType(ctx.query), parseLimitPage(ctx.query));
    sendJsonText(ctx, jsonArrayText(rows, 'transactions'), to);
  });

  router.get('/rate/:from/:to', async (ctx) => {
    const from = parseDate(ctx.params.from, 'from');
    const to = parseDate(ctx.params.to, 'to');
    if (to < from) throw badRequest('from must not be after to');
    if ((to - from) / DAY_MS > MAX_RATE_DAYS) throw badRequest(`at most ${MAX_RATE_DAYS} days per request`);
    // Both bounds are exclusive, as in the original: the days strictly between from and to.
    sendJson(ctx, await spendRates(pool, utcDay(from) + 1, utcDay(to)));
  });

  return router;
}
