/** @module /v3/transactions: ae_mdw's query engine over the stored chain, counts, by hash, and the node's pending list. */
import { isJsonObject, type Json } from '../../../chain/json.ts';
import type { Config } from '../../../config/middleware.ts';
import {
  countTransactions,
  transactionPositions,
  transactionsPage,
  transactionSummariesPage,
  type TxFilter,
} from '../../../db/queries/transaction-filter.ts';
import type { TxPosition } from '../../../db/queries/positions.ts';
import type { Pool } from '../../../db/connection/pool.ts';
import { accountFieldCounts, accountTypeCount } from '../../../db/queries/account-transactions.ts';
import { microBlockCounted } from '../../../db/queries/blocks.ts';
import { transactionByHash, type TxRow, type TxSummaryRow } from '../../../db/queries/transactions.ts';
import { readMempool } from '../../../node/mempool.ts';
import type { OutboundMetrics } from '../../../node/outbound-metrics.ts';
import { POSITION_CURSOR, INDEX_CURSOR } from './cursors.ts';
import { v3BadRequest, v3NotFound } from './mdw-errors.ts';
import { listPage, type List } from './list.ts';
import { oneObject, page, resource, type Item } from './resource.ts';
import { one, parseHash, parseId, parsePaging, type Scope } from './mdw-params.ts';
import { positionBounds } from './scope-bounds.ts';
import { transactionObject, transactionSummary } from '../../../shapes/v3/render-tx.ts';
import { parseTxFilter, snakeTxType } from './tx-query.ts';
import { TRANSACTION, PENDING_TRANSACTION } from '../../../shapes/v3/shapes-tx.ts';

/** TX_SCOPES: the scopes a list of transactions takes. */
export const TX_SCOPES: readonly Scope['type'][] = ['gen', 'time', 'txi'];

/** getTransactions: transactions matching every filter given. */
export const getTransactions = resource(page(TRANSACTION), async ({ pool }, req) => {
  const paging = parsePaging(req.query, { scopes: TX_SCOPES });
  const filter: TxFilter = { ...parseTxFilter(req.query), ...(await positionBounds(pool, paging.scope)) };
  return listPage(paging, transactionList(pool, filter));
});

/** transactionList is the list of the transactions `filter` selects, in position order (the export walks it too). */
export function transactionList(pool: Pool, filter: TxFilter): List<TxPosition, TxRow> {
  return {
    cursor: POSITION_CURSOR,
    read: (window) => transactionsPage(pool, filter, window),
    key: (t) => ({ height: t.height, microIndex: t.microIndex, txIndex: t.txIndex }),
    item: transactionObject,
    readKeys: (window) => transactionPositions(pool, filter, window),
  };
}

/**
 * transactionSummaryList is transactionList with each transaction's summary (render-tx.ts transactionSummary) for its
 * item: a CSV export's list, read and rendered in less than half the time.
 */
export function transactionSummaryList(pool: Pool, filter: TxFilter): List<TxPosition, TxSummaryRow> {
  const { cursor, key } = transactionList(pool, filter);
  return {
    cursor,
    key,
    read: (window) => transactionSummariesPage(pool, filter, window),
    item: transactionSummary,
  };
}

/** getTransactionsCount: how many transactions match; of one micro block (`mb_hash`, no scope) as `{data: n}`. */
export const getTransactionsCount = resource('TransactionsCount', async ({ pool }, req) => {
  const { mb_hash: mbHash, ...query } = req.query;
  if (mbHash !== undefined) {
    if (query.scope !== undefined) throw v3BadRequest('invalid query: scope not allowed');
    const hash = parseHash(one(mbHash), 'mh');
    const block = await microBlockCounted(pool, hash);
    if (!block) throw v3NotFound(hash);
    const inBlock = { from: { ...block, txIndex: 0 }, to: { ...block, txIndex: block.transactionsCount } };
    return { data: await countTransactions(pool, { ...parseTxFilter(query, { count: true }), ...inBlock }) };
  }
  const paging = parsePaging({ scope: query.scope }, { scopes: ['gen', 'time', 'txi'] });
  const filter: TxFilter = {
    ...parseTxFilter(query, { count: true }),
    ...(await positionBounds(pool, paging.scope)),
  };
  return countTransactions(pool, filter);
});

/** getPendingTransactions: the node's pending transactions. */
export const getPendingTransactions = resource(page(PENDING_TRANSACTION), async ({ cfg, outbound }, req) => {
  const paging = parsePaging(req.query);
  const pending = await pendingTransactions(cfg, outbound);
  // The mempool has no positions that last; its list order (oldest first) is the key.
  return listPage(paging, {
    cursor: INDEX_CURSOR,
    async read({ walk, from, n }) {
      const keyed = pending.map((item, key) => ({ key, item }));
      const ordered = walk === 'forward' ? keyed : keyed.reverse();
      const start =
        from === undefined ? 0 : ordered.findIndex((k) => (walk === 'forward' ? k.key >= from : k.key <= from));
      return start < 0 ? [] : ordered.slice(start, start + n);
    },
    key: (k) => k.key,
    render: (rows) => rows.map((k) => k.item),
  });
});

/** getPendingTransactionsCount: how many transactions are pending. */
export const getPendingTransactionsCount = resource('integer', async ({ cfg, outbound }) => {
  return (await pendingTransactions(cfg, outbound)).length;
});

/** getTransaction: a mined transaction by hash. */
export const getTransaction = oneObject(
  TRANSACTION,
  (p) => parseHash(p.hash, 'th'),
  transactionByHash,
  transactionObject,
);

/**
 * getAccountTransactionsCount: an id's transactions, counted per type and field; with `type_group` (which ae_mdw
 * reads first) or `type`, the bare number of its transactions of those types.
 */
export const getAccountTransactionsCount = resource('AccountTransactionsCount', async ({ pool }, req) => {
  const id = parseId(req.params.id, ['ak', 'ct', 'ok', 'ch', 'nm', 'oq']);
  const { type, type_group: typeGroup } = req.query;
  if (type !== undefined || typeGroup !== undefined) {
    const { types } = parseTxFilter(typeGroup !== undefined ? { type_group: typeGroup } : { type });
    return accountTypeCount(pool, id, types!);
  }
  const counts = await accountFieldCounts(pool, id);
  const body: Record<string, Json> = { total: counts.total };
  for (const { txType, field, n } of counts.byField) {
    const key = snakeTxType(txType);
    const fields = (body[key] ??= {}) as Record<string, Json>;
    fields[field] = n;
  }
  return body;
});

/**
 * pendingTransactions reads the node's mempool (internal API) as ae_mdw's PendingTransaction
 * objects; without NODE_INTERNAL_URL the pending list is empty. A node that does not answer is its NodeError (502,
 * or 504 for a timeout), as for every request that needs the node.
 */
async function pendingTransactions(cfg: Config, outbound: OutboundMetrics): Promise<Item[]> {
  if (cfg.nodeInternalUrl === undefined) return [];
  const { status, body: answer } = await readMempool(cfg.nodeInternalUrl, cfg.nodeTimeoutMs, outbound);
  const body = status === 200 ? answer : undefined;
  const list = isJsonObject(body) && Array.isArray(body.transactions) ? body.transactions : [];
  return list.filter(isJsonObject).map((t) => ({ ...t, failures: 0 }));
}
