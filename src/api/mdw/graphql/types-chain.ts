/**
 * @module ae_mdw's GraphQL object types over the chain itself (1.107, field for field as its schema names them), each
 * over the REST answer of the same resource: blocks, transactions, activities, transfers, statistics, status. Beyond
 * ae_mdw: a transaction's `block` and a micro block's `keyBlock`, loaded in batches (loaders.ts).
 */
import type { GraphQLFieldConfig, GraphQLObjectType } from 'graphql';
import type { BatchLoader } from './batch-loader.ts';
import { loadedField } from './batch.ts';
import { countOf, valueOf } from './fields.ts';
import type { Resource } from '../resources/resource.ts';
import { enumOf, I, S } from './object-types.ts';
import type { GraphQLContext, Loaders, RestObject } from './context.ts';
import { getPendingTransactionsCount, getTransactionsCount } from '../resources/transactions.ts';
import { shapeType } from './shape-types.ts';
import { KEY_BLOCK, MICRO_BLOCK } from '../../../shapes/v3/shapes-blocks.ts';
import { ACTIVITY, TRANSACTION, TRANSFER, WEALTH_ENTRY } from '../../../shapes/v3/shapes-tx.ts';
import * as stats from '../../../shapes/v3/shapes-stats.ts';
import { STATUS, SYNC_STATUS } from '../resources/status-shape.ts';

/** loaded is a field of ours (beyond ae_mdw) whose objects a page's items share, read in one batch per page. */
function loaded<K>(
  type: GraphQLObjectType<RestObject, GraphQLContext>,
  description: string,
  key: (source: RestObject) => K,
  loader: (loaders: Loaders) => BatchLoader<K, RestObject>,
): GraphQLFieldConfig<RestObject, GraphQLContext> {
  return loadedField(type, `${description} (beyond ae_mdw; read in one batch per page)`, { key, loader });
}

export const KeyBlock = shapeType(KEY_BLOCK);

export const MicroBlock: GraphQLObjectType<RestObject, GraphQLContext> = shapeType(MICRO_BLOCK, {
  keyBlock: loaded(
    KeyBlock,
    'the key block of its generation',
    (m) => m.height as number,
    (loaders) => loaders.keyBlock,
  ),
});

export const Transaction = shapeType(TRANSACTION, {
  block: loaded(
    MicroBlock,
    'the micro block holding it',
    (t) => t.block_hash as string,
    (loaders) => loaders.microBlock,
  ),
});

export const AccountActivity = shapeType(ACTIVITY);

export const ActivityType = enumOf('ActivityType', [
  'transactions',
  'aexn',
  'aex9',
  'aex141',
  'contract',
  'transfers',
  'claims',
  'swaps',
]);

export const Transfer = shapeType(TRANSFER);

export const Stats = shapeType(stats.STATS);
export const StartEndCountStats = shapeType(stats.STAT);
export const TotalStats = shapeType(stats.TOTAL_STAT);
export const DeltaStats = shapeType(stats.DELTA_STAT);
export const MinersStats = shapeType(stats.MINER);
export const TopMinersStats = shapeType(stats.TOP_MINER_STAT);
export const TopMiners24hStats = shapeType(stats.TOP_MINER_24H);

/** restCount is a count answered by a /v3 resource without parameters (its `{"data": n}` or n). */
function restCount(op: Resource, description: string): GraphQLFieldConfig<RestObject, GraphQLContext> {
  return {
    type: I,
    description,
    extensions: { reads: true }, // a read of its own, which cost.ts counts
    resolve: async (_status, _args, { env }) => countOf(valueOf(await op(env, { params: {}, query: {} }))),
  };
}

/** topKeyBlock is a field of the key block at the status's `mdw_height` (null while nothing is stored). */
function topKeyBlock(key: 'hash' | 'time', description: string): GraphQLFieldConfig<RestObject, GraphQLContext> {
  return {
    type: key === 'hash' ? S : I,
    description,
    resolve: async (status, _args, { loaders }) =>
      (await loaders.keyBlock.load(status.mdw_height as number))?.[key] ?? null,
  };
}

/**
 * ae_mdw's Status: /v3/status's fields, and fields its GraphQL declares and answers null (but `partial`, its
 * `mdw_syncing`), which we answer: the stored top, its key block, /v3/transactions/count and the pending count.
 */
export const Status = shapeType(STATUS, {
  lastKeyBlockHash: topKeyBlock('hash', 'the hash of the key block at `mdwHeight`'),
  lastKeyBlockTime: topKeyBlock('time', 'the time of the key block at `mdwHeight` (ms)'),
  totalTransactions: restCount(getTransactionsCount, 'the stored transactions, as /v3/transactions/count'),
  pendingTransactions: restCount(getPendingTransactionsCount, "the node's pending transactions"),
});

/** ae_mdw's SyncStatus, of /v3/status: the stored top and whether the middleware is still catching up. */
export const SyncStatus = shapeType(SYNC_STATUS);

export const WealthEntry = shapeType(WEALTH_ENTRY);
