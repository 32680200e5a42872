/**
 * @module The GraphQL object types over the chain itself that have fields of ours beyond their shape table (the others
 * are made where a query field names their shape: shapeType(TABLE) in queries-chain.ts): a transaction's `block` and
 * a micro block's `keyBlock`, loaded in batches (loaders.ts), the status's fields that ae_mdw declares and answers
 * null; and the activities' type enum.
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
import { TRANSACTION } from '../../../shapes/v3/shapes-tx.ts';
import { STATUS } from '../resources/status-shape.ts';

/** loaded is a field of ours (beyond ae_mdw) whose objects a page's items share, read in one batch per page. */
function loaded<K>(
  type: GraphQLObjectType<RestObject, GraphQLContext>,
  description: string,
  key: (source: RestObject) => K,
  loader: (loaders: Loaders) => BatchLoader<K, RestObject>,
): GraphQLFieldConfig<RestObject, GraphQLContext> {
  return loadedField(type, `${description} (beyond ae_mdw; read in one batch per page)`, { key, loader });
}

export const MicroBlock: GraphQLObjectType<RestObject, GraphQLContext> = shapeType(MICRO_BLOCK, {
  keyBlock: loaded(
    shapeType(KEY_BLOCK),
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
