/** @module ae_mdw's query fields over the chain itself: blocks, transactions, an account's activities, transfers, statistics, status. */
import { GraphQLBoolean, GraphQLList, GraphQLNonNull, GraphQLString } from 'graphql';
import { IntScalar, JsonScalar } from './scalars.ts';
import { asData, byId, countOf, optionalString, pageById, requiredString, type QueryField } from './fields.ts';
import {
  AccountActivity,
  ActivityType,
  DeltaStats,
  KeyBlock,
  MicroBlock,
  MinersStats,
  StartEndCountStats,
  Stats,
  Status,
  SyncStatus,
  TopMiners24hStats,
  TopMinersStats,
  TotalStats,
  Transaction,
  Transfer,
  WealthEntry,
} from './types-chain.ts';
import { enumOf, list, objectType } from './object-types.ts';

const strings = (to: `query:${string}`) => ({ type: new GraphQLList(new GraphQLNonNull(GraphQLString)), to });
const height = { type: new GraphQLNonNull(IntScalar), to: 'path:hash_or_kbi' } as const;

export const BLOCK_QUERIES: Readonly<Record<string, QueryField>> = {
  keyBlocks: { op: 'GetKeyBlocks', type: KeyBlock, list: 'scoped', description: 'Key blocks' },
  keyBlockAtHeight: { op: 'GetKeyBlock', type: KeyBlock, args: { height }, description: 'The key block at a height' },
  keyBlockWithHash: {
    op: 'GetKeyBlock',
    type: KeyBlock,
    args: { hash: requiredString('path:hash_or_kbi') },
    description: 'The key block with a hash',
  },
  keyBlock: byId('GetKeyBlock', KeyBlock, 'A key block by height or hash', 'path:hash_or_kbi'),
  microBlocksOfKeyBlockAtHeight: {
    op: 'GetKeyBlockMicroBlocks',
    type: MicroBlock,
    list: 'paged',
    args: { height },
    description: 'The micro blocks of the generation at a height',
  },
  microBlocksOfKeyBlockWithHash: {
    op: 'GetKeyBlockMicroBlocks',
    type: MicroBlock,
    list: 'paged',
    args: { hash: requiredString('path:hash_or_kbi') },
    description: 'The micro blocks of the generation of a key block hash',
  },
  keyBlockMicroBlocks: pageById(
    'GetKeyBlockMicroBlocks',
    MicroBlock,
    'The micro blocks of a generation by height or hash',
    'path:hash_or_kbi',
  ),
  microBlock: {
    op: 'GetMicroBlock',
    type: MicroBlock,
    args: { hash: requiredString('path:hash') },
    description: 'A micro block',
  },
};

export const TRANSACTION_QUERIES: Readonly<Record<string, QueryField>> = {
  transaction: {
    op: 'GetTransaction',
    type: Transaction,
    args: { hash: optionalString('path:hash'), id: optionalString('path:hash') },
    description: 'A transaction by hash (`hash` or `id`)',
  },
  transactions: {
    op: 'GetTransactions',
    type: Transaction,
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
    op: 'GetTransactionsCount',
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
    op: 'GetMicroBlockTransactions',
    type: Transaction,
    list: 'paged',
    args: { hash: requiredString('path:hash') },
    description: 'The transactions of a micro block',
  },
  pendingTransactions: {
    op: 'GetPendingTransactions',
    type: Transaction,
    list: 'paged',
    description: "The node's pending transactions",
  },
  pendingTransactionsCount: {
    op: 'GetPendingTransactionsCount',
    type: IntScalar,
    description: 'How many transactions are pending',
  },
  accountTransactionsCount: byId(
    'GetAccountTransactionsCount',
    JsonScalar,
    "An id's transactions counted per type and field",
  ),
};

export const ACCOUNT_QUERIES: Readonly<Record<string, QueryField>> = {
  accountActivities: {
    op: 'GetAccountActivities',
    type: AccountActivity,
    list: 'scoped',
    args: {
      id: requiredString('path:id'),
      ownedOnly: { type: GraphQLBoolean, to: 'query:owned_only' },
      type: { type: ActivityType, to: 'query:type' },
    },
    description: "An id's activities",
  },
  transfers: {
    op: 'GetTransfers',
    type: Transfer,
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

/** series is a statistics time series of its operation, with the dates where ae_mdw takes them. */
const series = (op: string, description: string, extra: QueryField['args'] = {}, withDates = true): QueryField => ({
  op,
  type: StartEndCountStats,
  list: 'paged',
  args: { intervalBy: interval, ...(withDates ? dates : {}), ...extra },
  description,
});

const TopMiners24hStatsPage = objectType('TopMiners24hStatsPage', { data: list(TopMiners24hStats) });
const WealthPage = objectType('WealthPage', { data: list(WealthEntry) });

export const STATS_QUERIES: Readonly<Record<string, QueryField>> = {
  stats: { op: 'GetStats', type: Stats, description: 'Counters of the last 24 hours' },
  transactionsStats: series('GetTransactionsStats', 'Transactions per interval', {
    txType: optionalString('query:tx_type'),
  }),
  totalTransactionsStats: {
    op: 'GetTotalTransactionsStats',
    type: IntScalar,
    args: { txType: optionalString('query:tx_type'), ...dates },
    description: 'Transactions between the dates',
    pick: countOf,
  },
  blocksStats: series('GetBlocksStats', 'Blocks per interval', { type: { type: BlockType, to: 'query:type' } }),
  difficultyStats: series('GetDifficultyStats', 'Average difficulty per interval'),
  hashrateStats: series('GetHashrateStats', 'Average hashrate per interval'),
  totalAccountsStats: series('GetTotalAccountsStats', 'Accounts seen first per interval', {}, false),
  activeAccountsStats: series('GetActiveAccountsStats', 'Active accounts per interval', {}, false),
  namesStats: series('GetNamesStats', 'Names activated per interval'),
  contractsStats: series('GetContractsStats', 'Contracts created per interval'),
  aex9TransfersStats: series('GetAex9TransfersStats', 'AEX-9 transfers per interval'),
  totalStats: { op: 'GetTotalStats', type: TotalStats, list: 'scoped', description: 'Totals per generation' },
  deltaStats: { op: 'GetDeltaStats', type: DeltaStats, list: 'scoped', description: 'Changes per generation' },
  minersStats: { op: 'GetMinerStats', type: MinersStats, list: 'paged', description: 'Rewards per miner' },
  topMinersStats: { ...series('GetTopMinerStats', 'Top miners per interval'), type: TopMinersStats },
  topMiners24hStats: {
    op: 'GetTopMiners24hs',
    type: TopMiners24hStatsPage,
    description: 'Top miners of the last 24 hours',
    pick: asData,
  },
};

export const WEALTH_QUERIES: Readonly<Record<string, QueryField>> = {
  wealth: {
    op: 'GetWealth',
    type: WealthPage,
    description: 'The accounts with the most AE, highest first',
    pick: asData,
  },
};

export const STATUS_QUERIES: Readonly<Record<string, QueryField>> = {
  status: { op: 'GetStatus', type: Status, description: 'Middleware and node status' },
  syncStatus: { op: 'GetStatus', type: SyncStatus, description: 'The stored top and whether it is still catching up' },
};
