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
import { B, Bool, enumOf, F, I, J, list, objectType, S } from './object-types.ts';
import type { GraphQLContext, Loaders, RestObject } from './context.ts';
import { getPendingTransactionsCount, getTransactionsCount } from '../resources/transactions.ts';

/** loaded is a field of ours (beyond ae_mdw) whose objects a page's items share, read in one batch per page. */
function loaded<K>(
  type: GraphQLObjectType<RestObject, GraphQLContext>,
  description: string,
  key: (source: RestObject) => K,
  loader: (loaders: Loaders) => BatchLoader<K, RestObject>,
): GraphQLFieldConfig<RestObject, GraphQLContext> {
  return loadedField(type, `${description} (beyond ae_mdw; read in one batch per page)`, { key, loader });
}

/** ae_mdw's status fields that are other /v3/status keys: `partial` is `!!mdw_syncing`, the synced height `mdw_height` */
const STATUS_KEYS = { partial: 'mdw_syncing', lastSyncedHeight: 'mdw_height' };

export const KeyBlock = objectType('KeyBlock', {
  transactionsCount: I,
  microBlocksCount: I,
  beneficiaryReward: B,
  beneficiary: S,
  flags: S,
  hash: S,
  height: I,
  info: S,
  miner: S,
  nonce: B,
  pow: list(I),
  prevHash: S,
  prevKeyHash: S,
  stateHash: S,
  target: I,
  time: I,
  version: I,
});

export const MicroBlock: GraphQLObjectType<RestObject, GraphQLContext> = objectType('MicroBlock', {
  gas: I,
  transactionsCount: I,
  microBlockIndex: I,
  flags: S,
  hash: S,
  height: I,
  pofHash: S,
  prevHash: S,
  prevKeyHash: S,
  signature: S,
  stateHash: S,
  time: I,
  txsHash: S,
  version: I,
  keyBlock: loaded(
    KeyBlock,
    'the key block of its generation',
    (m) => m.height as number,
    (loaders) => loaders.keyBlock,
  ),
});

export const Transaction = objectType('Transaction', {
  blockHash: S,
  blockHeight: I,
  encodedTx: S,
  hash: S,
  microIndex: I,
  microTime: I,
  signatures: list(S),
  tx: J,
  txIndex: I,
  block: loaded(
    MicroBlock,
    'the micro block holding it',
    (t) => t.block_hash as string,
    (loaders) => loaders.microBlock,
  ),
});

export const AccountActivity = objectType('AccountActivity', {
  type: S,
  height: I,
  blockHash: S,
  payload: J,
  blockTime: I,
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

export const Transfer = objectType('Transfer', {
  kind: S,
  height: I,
  amount: B,
  accountId: S,
  refTxHash: S,
  refBlockHash: S,
  refTxType: S,
});

export const Stats = objectType(
  'Stats',
  {
    totalBlocks: I,
    feesTrend: F,
    last24hsAverageTransactionFees: F,
    last24hsTransactions: I,
    maxTransactionsPerSecond: F,
    maxTransactionsPerSecondBlockHash: S,
    millisecondsPerBlock: I,
    transactionsTrend: F,
    minersCount: I,
    validatorsCount: I,
  },
  {
    last24hsAverageTransactionFees: 'last_24hs_average_transaction_fees',
    last24hsTransactions: 'last_24hs_transactions',
  },
);

export const StartEndCountStats = objectType('StartEndCountStats', { count: I, startDate: S, endDate: S });

export const TotalStats = objectType('TotalStats', {
  height: I,
  contracts: I,
  lockedInAuctions: B,
  burnedInAuctions: B,
  lockedInChannels: B,
  activeAuctions: I,
  activeNames: I,
  inactiveNames: I,
  activeOracles: I,
  inactiveOracles: I,
  openChannels: I,
  lastTxHash: S,
  sumBlockReward: B,
  sumDevReward: B,
  totalTokenSupply: B,
});

export const DeltaStats = objectType('DeltaStats', {
  height: I,
  auctionsStarted: I,
  namesActivated: I,
  namesExpired: I,
  namesRevoked: I,
  oraclesRegistered: I,
  oraclesExpired: I,
  contractsCreated: I,
  blockReward: B,
  devReward: B,
  lockedInAuctions: B,
  burnedInAuctions: B,
  channelsOpened: I,
  channelsClosed: I,
  lockedInChannels: B,
  lastTxHash: S,
});

export const MinersStats = objectType('MinersStats', { miner: S, totalReward: B });
export const TopMinersStats = objectType('TopMinersStats', { miner: S, blocksMined: I, startDate: S, endDate: S });
export const TopMiners24hStats = objectType('TopMiners24hStats', { miner: S, blocksMined: I });

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
export const Status = objectType(
  'Status',
  {
    nodeHeight: I,
    nodeVersion: S,
    mdwAsyncTasks: J,
    mdwGensPerMinute: F,
    mdwHeight: I,
    mdwLastMigration: I,
    mdwRevision: S,
    mdwSynced: Bool,
    mdwSyncing: Bool,
    mdwTxIndex: I,
    mdwVersion: S,
    nodeProgress: F,
    nodeRevision: S,
    nodeSyncing: Bool,
    partial: Bool,
    lastSyncedHeight: I,
    lastKeyBlockHash: topKeyBlock('hash', 'the hash of the key block at `mdwHeight`'),
    lastKeyBlockTime: topKeyBlock('time', 'the time of the key block at `mdwHeight` (ms)'),
    totalTransactions: restCount(getTransactionsCount, 'the stored transactions, as /v3/transactions/count'),
    pendingTransactions: restCount(getPendingTransactionsCount, "the node's pending transactions"),
  },
  STATUS_KEYS,
);

/** ae_mdw's SyncStatus, of /v3/status: the stored top and whether the middleware is still catching up. */
export const SyncStatus = objectType('SyncStatus', { lastSyncedHeight: I, partial: Bool }, STATUS_KEYS);

export const WealthEntry = objectType('WealthEntry', { account: S, balance: B });
