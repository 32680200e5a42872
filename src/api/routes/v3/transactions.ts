/** @module /v3/transactions: ae_mdw's query engine over the stored chain, counts, by hash, and the node's pending list. */
import type Router from '@koa/router';
import { isJsonObject, parseJson, stringifyJson, type Json } from '../../../chain/json.ts';
import type { Config } from '../../../config.ts';
import type { Pool } from '../../../db/pool.ts';
import {
  countTransactions,
  transactionPositions,
  transactionsPage,
  type TxFilter,
} from '../../../db/queries/transaction-filter.ts';
import { accountFieldCounts } from '../../../db/queries/account-transactions.ts';
import { transactionByHash } from '../../../db/queries/transactions.ts';
import { httpGet } from '../../../node/http-get.ts';
import { PENDING_PATH } from '../../../events/tx-update.ts';
import { POSITION_CURSOR, INDEX_CURSOR } from './cursors.ts';
import { v3NotFound } from './errors.ts';
import { paginate } from './page.ts';
import { parseHash, parseId, parsePaging } from './params.ts';
import { positionBounds } from './scope-bounds.ts';
import { transactionJson } from '../../../shapes/v3/render-tx.ts';
import { sendPage, sendText, sendValue } from './respond.ts';
import { parseTxFilter, snakeTxType } from './tx-query.ts';

/** transactionRoutes registers the transaction operations on the /v3 router. */
export function transactionRoutes(router: Router, pool: Pool, cfg: Config): void {
  router.get('/transactions', async (ctx) => {
    const paging = parsePaging(ctx.query, { scopes: ['gen', 'time', 'txi'] });
    const filter: TxFilter = { ...parseTxFilter(ctx.query), ...(await positionBounds(pool, paging.scope)) };
    const page = await paginate(
      async (walk, from, n) =>
        (await transactionsPage(pool, filter, walk, from, n)).map((t) => ({
          key: { height: t.height, microIndex: t.microIndex, txIndex: t.txIndex },
          item: transactionJson(t),
        })),
      { ...paging, cursor: POSITION_CURSOR.decode(paging.cursor) },
      (walk, from, n) => transactionPositions(pool, filter, walk, from, n),
    );
    sendPage(ctx, page, POSITION_CURSOR.encode);
  });

  router.get('/transactions/count', async (ctx) => {
    const paging = parsePaging({ scope: ctx.query.scope }, { scopes: ['gen', 'time', 'txi'] });
    const filter: TxFilter = { ...parseTxFilter(ctx.query), ...(await positionBounds(pool, paging.scope)) };
    sendValue(ctx, await countTransactions(pool, filter));
  });

  router.get('/transactions/pending', async (ctx) => {
    const paging = parsePaging(ctx.query);
    const pending = await pendingTransactions(cfg);
    // The mempool has no positions that last; its list order (oldest first) is the key.
    const page = await paginate(
      async (walk, from, n) => {
        const keyed = pending.map((item, key) => ({ key, item }));
        const ordered = walk === 'forward' ? keyed : keyed.reverse();
        const start =
          from === undefined ? 0 : ordered.findIndex((k) => (walk === 'forward' ? k.key >= from : k.key <= from));
        return start < 0 ? [] : ordered.slice(start, start + n);
      },
      { ...paging, cursor: INDEX_CURSOR.decode(paging.cursor) },
    );
    sendPage(ctx, page, INDEX_CURSOR.encode);
  });

  router.get('/transactions/pending/count', async (ctx) => {
    sendValue(ctx, (await pendingTransactions(cfg)).length);
  });

  router.get('/transactions/:hash', async (ctx) => {
    const hash = parseHash(ctx.params.hash, 'th');
    const row = await transactionByHash(pool, hash);
    if (!row) throw v3NotFound(hash);
    sendText(ctx, transactionJson(row));
  });

  router.get('/accounts/:id/transactions/count', async (ctx) => {
    const id = parseId(ctx.params.id, ['ak', 'ct', 'ok', 'ch', 'nm', 'oq']);
    const counts = await accountFieldCounts(pool, id);
    const body: Record<string, Json> = { total: counts.total };
    for (const { txType, field, n } of counts.byField) {
      const key = snakeTxType(txType);
      const fields = (body[key] ??= {}) as Record<string, Json>;
      fields[field] = n;
    }
    sendValue(ctx, body);
  });
}

/**
 * pendingTransactions reads the node's mempool (internal API) as ae_mdw's PendingTransaction
 * objects; without NODE_INTERNAL_URL the pending list is empty.
 */
async function pendingTransactions(cfg: Config): Promise<string[]> {
  if (cfg.nodeInternalUrl === undefined) return [];
  const { status, text } = await httpGet(new URL(`${cfg.nodeInternalUrl}${PENDING_PATH}`), cfg.nodeTimeoutMs);
  const body = status === 200 ? parseJson(text) : undefined;
  const list = isJsonObject(body) && Array.isArray(body.transactions) ? body.transactions : [];
  return list.filter(isJsonObject).map((t) => stringifyJson({ ...t, failures: 0 }));
}
