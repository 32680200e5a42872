/** @module ae_mdw's query fields over the chain itself: blocks, transactions, an account's activities, transfers, statistics, status. */
import { GraphQLBoolean, GraphQLList, GraphQLNonNull, GraphQLObjectType, GraphQLString } from 'graphql';
import { IntScalar, JsonScalar } from './scalars.ts';
import { asData, byId, countOf, optionalString, pageById, requiredString, type QueryField } from './fields.ts';
import { ActivityType, Transaction } from './types-chain.ts';
import { shapeType } from './shape-types.ts';
import { WEALTH_ENTRY } from '../../../shapes/v3/shapes-tx.ts';
import { TOP_MINER_24H } from '../../../shapes/v3/shapes-stats.ts';
import { SYNC_STATUS } from '../resources/status-shape.ts';
import { enumOf, list } from './object-types.ts';
import { getAccountActivities, getTransfers } from '../resources/activities.ts';
import * as blocks from '../resources/blocks.ts';
import type { Resource } from '../resources/resource.ts';
import { getStatus } from '../resources/service.ts';
import * as stats from '../resources/stats.ts';
import { getTopMiners24h } from '../resources/top-miners.ts';
import * as transactions from '../resources/transactions.ts';
import { getWealth } from '../resources/wealth.ts';
import { getAccountBalance, getAccountBalanceHistory } from '../resources/ae-balances.ts';

const strings = (to: `query:${string}`) => ({ type: new GraphQLList(new GraphQLNonNull(GraphQLString)), to });
const height = { type: new GraphQLNonNull(IntScalar), to: 'path:hash_or_kbi' } as const;

export const BLOCK_QUERIES: Readonly<Record<string, QueryField>> = {
  keyBlocks: { op: blocks.getKeyBlocks, list: 'scoped', description: 'Key blocks' },
  keyBlockAtHeight: {
    op: blocks.getKeyBlock,
    args: { height },
    description: 'The key block at a height',
  },
  keyBlockWithHash: {
    op: blocks.getKeyBlock,
    args: { hash: requiredString('path:hash_or_kbi') },
    description: 'The key block with a hash',
  },
  keyBlock: byId(blocks.getKeyBlock, 'A key block by height or hash', 'path:hash_or_kbi'),
  microBlocksOfKeyBlockAtHeight: {
    op: blocks.getKeyBlockMicroBlocks,
    list: 'paged',
    args: { height },
    description: 'The micro blocks of the generation at a height',
  },
  microBlocksOfKeyBlockWithHash: {
    op: blocks.getKeyBlockMicroBlocks,
    list: 'paged',
    args: { hash: requiredString('path:hash_or_kbi') },
    description: 'The micro blocks of the generation of a key block hash',
  },
  keyBlockMicroBlocks: pageById(
    blocks.getKeyBlockMicroBlocks,
    'The micro blocks of a generation by height or hash',
    'path:hash_or_kbi',
  ),
  microBlock: {
    op: blocks.getMicroBlock,
    args: { hash: requiredString('path:hash') },
    description: 'A micro block',
  },
};

export const TRANSACTION_QUERIES: Readonly<Record<string, QueryField>> = {
  transaction: {
    op: transactions.getTransaction,
    args: { hash: optionalString('path:hash'), id: optionalString('path:hash') },
    description: 'A transaction by hash (`hash` or `id`)',
  },
  transactions: {
    op: transactions.getTransactions,
    list: 'scoped',
    args: {
      type: strings('query:type'),
      typeGroup: strings('query:type_group'),
      account: optionalString('query:account'),
      contract: optionalString('query:contract'),
      channel: optionalString('query:channel'),
      oracle: optionalString('query:oracle'),
      senderId: optionalString('query:sender_id'),
      recipientId: optionalString('query:recipient_id'),
      entrypoint: optionalString('query:entrypoint'),
    },
    description: 'Transactions matching every filter given',
  },
  transactionsCount: {
    op: transactions.getTransactionsCount,
    type: IntScalar,
    args: {
      id: optionalString('query:id'),
      type: optionalString('query:type'),
      typeGroup: optionalString('query:type_group'),
    },
    description: 'How many transactions match',
    pick: countOf,
  },
  microBlockTransactions: {
    op: blocks.getMicroBlockTransactions,
    list: 'paged',
    args: { hash: requiredString('path:hash') },
    description: 'The transactions of a micro block',
  },
  pendingTransactions: {
    op: transactions.getPendingTransactions,
    // REST's PendingTransaction has no GraphQL name: ae_mdw's schema answers them as transactions
    type: Transaction,
    list: 'paged',
    description: "The node's pending transactions",
  },
  pendingTransactionsCount: {
    op: transactions.getPendingTransactionsCount,
    type: IntScalar,
    description: 'How many transactions are pending',
  },
  accountTransactionsCount: {
    ...byId(transactions.getAccountTransactionsCount, "An id's transactions counted per type and field"),
    type: JsonScalar,
  },
};

export const ACCOUNT_QUERIES: Readonly<Record<string, QueryField>> = {
  accountActivities: {
    op: getAccountActivities,
    list: 'scoped',
    args: {
      id: requiredString('path:id'),
      ownedOnly: { type: GraphQLBoolean, to: 'query:owned_only' },
      type: { type: ActivityType, to: 'query:type' },
    },
    description: "An id's activities",
  },
  transfers: {
    op: getTransfers,
    list: 'scoped',
    args: { account: optionalString('query:account'), kind: optionalString('query:kind') },
    description: 'Internal transfers',
  },
};

const StatsInterval = enumOf('StatsInterval', ['day', 'week', 'month']);
const BlockType = enumOf('BlockType', ['key', 'micro']);
const interval = { type: StatsInterval, to: 'query:interval_by', defaultValue: 'day' } as const;
const dates = {
  minStartDate: optionalString('query:min_start_date'),
  maxStartDate: optionalString('query:max_start_date'),
};

/** series is a statistics time series of its resource, with the dates where ae_mdw takes them. */
const series = (op: Resource, description: string, extra: QueryField['args'] = {}, withDates = true): QueryField => ({
  op,
  list: 'paged',
  args: { intervalBy: interval, ...(withDates ? dates : {}), ...extra },
  description,
});

/** ae_mdw's pages of the answers that are plain arrays */
const TopMiners24hStatsPage = new GraphQLObjectType({
  name: 'TopMiners24hStatsPage',
  fields: { data: { type: list(shapeType(TOP_MINER_24H)) } },
});
const WealthPage = new GraphQLObjectType({
  name: 'WealthPage',
  fields: { data: { type: list(shapeType(WEALTH_ENTRY)) } },
});

export const STATS_QUERIES: Readonly<Record<string, QueryField>> = {
  stats: { op: stats.getStats, description: 'Counters of the last 24 hours' },
  transactionsStats: series(stats.seriesStats('transactions'), 'Transactions per interval', {
    txType: optionalString('query:tx_type'),
  }),
  totalTransactionsStats: {
    op: stats.getTotalTransactionsStats,
    type: IntScalar,
    args: { txType: optionalString('query:tx_type'), ...dates },
    description: 'Transactions between the dates',
    pick: countOf,
  },
  blocksStats: series(stats.seriesStats('blocks'), 'Blocks per interval', {
    type: { type: BlockType, to: 'query:type' },
  }),
  difficultyStats: series(stats.seriesStats('difficulty'), 'Average difficulty per interval'),
  hashrateStats: series(stats.seriesStats('hashrate'), 'Average hashrate per interval'),
  totalAccountsStats: series(stats.seriesStats('total-accounts'), 'Accounts seen first per interval', {}, false),
  activeAccountsStats: series(stats.seriesStats('active-accounts'), 'Active accounts per interval', {}, false),
  namesStats: series(stats.seriesStats('names'), 'Names activated per interval'),
  contractsStats: series(stats.seriesStats('contracts'), 'Contracts created per interval'),
  aex9TransfersStats: series(stats.seriesStats('aex9-transfers'), 'AEX-9 transfers per interval'),
  totalStats: {
    op: stats.getTotalStats,
    list: 'scoped',
    description: 'Totals per generation',
  },
  deltaStats: {
    op: stats.getDeltaStats,
    list: 'scoped',
    description: 'Changes per generation',
  },
  minersStats: { op: stats.getMinerStats, list: 'paged', description: 'Rewards per miner' },
  topMinersStats: { ...series(stats.getTopMinerStats, 'Top miners per interval') },
  topMiners24hStats: {
    op: getTopMiners24h,
    type: TopMiners24hStatsPage,
    description: 'Top miners of the last 24 hours',
    pick: asData,
  },
};

export const WEALTH_QUERIES: Readonly<Record<string, QueryField>> = {
  wealth: {
    op: getWealth,
    type: WealthPage,
    description: 'The accounts with the most AE, highest first',
    pick: asData,
  },
  accountAeBalance: {
    op: getAccountBalance,
    args: {
      id: requiredString('path:accountId'),
      height: { type: IntScalar, to: 'query:height' },
      hash: { type: GraphQLString, to: 'query:hash' },
      time: { type: IntScalar, to: 'query:time' },
    },
    description:
      "An account's AE balance after a generation, after a key or micro block (`hash`) or at a time (unix seconds), and its last change",
  },
  accountAeBalanceHistory: {
    op: getAccountBalanceHistory,
    list: 'scoped',
    args: { id: requiredString('path:accountId') },
    description: "Every change of an account's AE balance, with its cause and the balance after it",
  },
};

export const STATUS_QUERIES: Readonly<Record<string, QueryField>> = {
  status: { op: getStatus, description: 'Middleware and node status' },
  syncStatus: {
    op: getStatus,
    // the status's two sync fields, ae_mdw's SyncStatus
    type: shapeType(SYNC_STATUS),
    description: 'The stored top and whether it is still catching up',
  },
};
