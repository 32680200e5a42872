/**
 * @module The /v3 route table: every route once, by its method and path, from which the index that dispatches them is
 * built (rest-routes.ts) and the /v3/api document generated (api-document.ts).
 */
import { getAccountActivities, getTransfers } from '../resources/activities.ts';
import {
  getAex9AccountBalances,
  getAex9ByContract,
  getAex9ContractAccountBalance,
  getAex9ContractAccountBalanceHistory,
  getAex9ContractBalances,
  getAex9ContractTransfers,
  getAex9TokensCount,
  getSortedAex9Tokens,
} from '../resources/aex9.ts';
import {
  getAex141ByContract,
  getAex141ContractTemplates,
  getAex141ContractTokens,
  getAex141ContractTransfers,
  getAex141Count,
  getAex141OwnedTokens,
  getAex141TemplateTokens,
  getAex141TokenOwner,
  getAex141Transfers,
  getSortedAex141Contracts,
} from '../resources/aex141.ts';
import {
  getKeyBlock,
  getKeyBlockMicroBlocks,
  getKeyBlocks,
  getMicroBlock,
  getMicroBlockTransactions,
} from '../resources/blocks.ts';
import { getChannel, getChannels, getChannelUpdates } from '../resources/channels.ts';
import { getNameHistory } from '../resources/name-history.ts';
import {
  getContract,
  getContractCalls,
  getContractCallTransactions,
  getContractLogs,
  getContracts,
} from '../resources/contracts.ts';
import { getAccountDexSwaps, getDebugDexSwaps, getDexSwaps, getDexSwapsByContractId } from '../resources/dex.ts';
import {
  getAccountNameClaims,
  getAccountPointees,
  getName,
  getNameAuction,
  getNameClaims,
  getNames,
  getNamesAuctions,
  getNamesCount,
  getNameTransfers,
  getNameUpdates,
} from '../resources/names.ts';
import {
  answerShapes,
  handledShapes,
  isExport,
  isHandled,
  PAGED,
  SCOPED,
  type ParamName,
  type V3Export,
  type V3Handled,
  type V3Operation,
  type V3Route,
} from './operation.ts';
import { ACTIVITY_COLUMNS, TRANSACTION_COLUMNS } from './export-formats.ts';
import type { Shape } from '../../../shapes/shape-table.ts';
import { getOracle, getOracleExtends, getOracleQueries, getOracleResponses, getOracles } from '../resources/oracles.ts';
import { getApi, getStatus } from '../resources/service.ts';
import { STATS_OPERATIONS } from './stats-operations.ts';
import { HYPERCHAIN_OPERATIONS } from './hyperchain-operations.ts';
import { WEBHOOKS_OPERATIONS } from './webhooks-operations.ts';
import { getWealth } from '../resources/wealth.ts';
import { getAccountBalance, getAccountBalanceHistory } from '../resources/ae-balances.ts';
import { BALANCES_POST } from './balances-post.ts';
import {
  getAccountTransactionsCount,
  getPendingTransactions,
  getPendingTransactionsCount,
  getTransaction,
  getTransactions,
  getTransactionsCount,
} from '../resources/transactions.ts';

const TX_FILTERS: readonly ParamName[] = [
  'query:type',
  'query:type_group',
  'query:account',
  'query:contract',
  'query:channel',
  'query:oracle',
  'query:name',
  'query:sender_id',
  'query:recipient_id',
  'query:entrypoint',
];

/**
 * V3_ROUTES: every /v3 route we answer, in the order the route index tries them (fixed paths before `{id}`): an
 * operation's answer is its resource's value, an export's a stream (export-routes.ts), a handled route's its handler's
 * (the webhooks API, which writes).
 */
export const V3_ROUTES: readonly V3Route[] = [
  {
    path: '/status',
    operationId: 'GetStatus',
    summary: 'Sync status',
    params: [],
    resource: getStatus,
    noStore: true,
  },
  { path: '/api', operationId: 'GetApi', summary: 'This document', params: [], resource: getApi },
  {
    path: '/wealth',
    operationId: 'GetWealth',
    summary: 'The accounts with the most AE (200, no paging)',
    params: [],
    resource: getWealth,
  },
  {
    path: '/key-blocks',
    operationId: 'GetKeyBlocks',
    summary: 'Key blocks',
    params: SCOPED,
    resource: getKeyBlocks,
  },
  {
    path: '/key-blocks/{hash_or_kbi}',
    operationId: 'GetKeyBlock',
    summary: 'A key block by hash or height',
    params: ['path:hash_or_kbi'],
    resource: getKeyBlock,
  },
  {
    path: '/key-blocks/{hash_or_kbi}/micro-blocks',
    operationId: 'GetKeyBlockMicroBlocks',
    summary: 'The micro blocks of a generation',
    params: ['path:hash_or_kbi', ...PAGED],
    resource: getKeyBlockMicroBlocks,
  },
  {
    path: '/micro-blocks/{hash}',
    operationId: 'GetMicroBlock',
    summary: 'A micro block',
    params: ['path:hash'],
    resource: getMicroBlock,
  },
  {
    path: '/micro-blocks/{hash}/transactions',
    operationId: 'GetMicroBlockTransactions',
    summary: 'The transactions of a micro block',
    params: ['path:hash', ...PAGED],
    resource: getMicroBlockTransactions,
  },
  {
    path: '/transactions',
    operationId: 'GetTransactions',
    summary: 'Transactions matching every filter given',
    params: [...SCOPED, ...TX_FILTERS],
    resource: getTransactions,
  },
  {
    path: '/transactions/count',
    operationId: 'GetTransactionsCount',
    summary: 'How many transactions match',
    params: ['scope', 'query:tx_type', 'query:id', 'query:mb_hash', ...TX_FILTERS],
    resource: getTransactionsCount,
  },
  {
    path: '/transactions/pending',
    operationId: 'GetPendingTransactions',
    summary: "The node's pending transactions",
    params: PAGED,
    resource: getPendingTransactions,
  },
  {
    path: '/transactions/pending/count',
    operationId: 'GetPendingTransactionsCount',
    summary: 'How many transactions are pending',
    params: [],
    resource: getPendingTransactionsCount,
  },
  {
    path: '/transactions/{hash}',
    operationId: 'GetTransaction',
    summary: 'A transaction',
    params: ['path:hash'],
    resource: getTransaction,
  },
  {
    path: '/accounts/{id}/transactions/count',
    operationId: 'GetAccountTransactionsCount',
    summary: "An id's transactions, counted per type and field (a bare number with type or type_group)",
    params: ['path:id', 'query:type', 'query:type_group'],
    resource: getAccountTransactionsCount,
  },
  {
    path: '/names',
    operationId: 'GetNames',
    summary: 'Names, by activation, deactivation or name',
    params: [...PAGED, 'query:by', 'query:state', 'query:owned_by', 'query:prefix'],
    resource: getNames,
  },
  {
    path: '/names/count',
    operationId: 'GetNamesCount',
    summary: 'Active names',
    params: ['query:owned_by'],
    resource: getNamesCount,
  },
  {
    path: '/names/auctions',
    operationId: 'GetNamesAuctions',
    summary: 'Names in auction',
    params: PAGED,
    resource: getNamesAuctions,
  },
  {
    path: '/names/auctions/{id}',
    operationId: 'GetNameAuction',
    summary: 'A name in auction',
    params: ['path:id'],
    resource: getNameAuction,
  },
  {
    path: '/names/auctions/{id}/claims',
    operationId: 'GetNameAuctionClaims',
    summary: 'Claims and bids of a name',
    params: ['path:id', ...PAGED],
    resource: getNameClaims,
  },
  {
    path: '/names/{id}',
    operationId: 'GetName',
    summary: 'A name by name or nm_ hash',
    params: ['path:id'],
    resource: getName,
  },
  {
    path: '/names/{id}/claims',
    operationId: 'GetNameClaims',
    summary: 'Claims and bids of a name',
    params: ['path:id', ...PAGED],
    resource: getNameClaims,
  },
  {
    path: '/names/{id}/transfers',
    operationId: 'GetNameTransfers',
    summary: 'Transfers of a name',
    params: ['path:id', ...PAGED],
    resource: getNameTransfers,
  },
  {
    path: '/names/{id}/updates',
    operationId: 'GetNameUpdates',
    summary: 'Updates of a name',
    params: ['path:id', ...PAGED],
    resource: getNameUpdates,
  },
  {
    path: '/names/{id}/history',
    operationId: 'GetNameHistory',
    summary: "A name's claims, bids, updates, transfers, revokes and expiries",
    params: ['path:id', ...PAGED],
    resource: getNameHistory,
  },
  {
    path: '/accounts/{id}/names/claims',
    operationId: 'GetAccountNameClaims',
    summary: 'Name claims made by an account',
    params: ['path:id', ...PAGED],
    resource: getAccountNameClaims,
  },
  {
    path: '/accounts/{id}/names/pointees',
    operationId: 'GetAccountPointees',
    summary: 'Names pointing at an id',
    params: ['path:id', ...PAGED],
    resource: getAccountPointees,
  },
  {
    path: '/oracles',
    operationId: 'GetOracles',
    summary: 'Oracles by expiry',
    params: [...SCOPED, 'query:state'],
    resource: getOracles,
  },
  {
    path: '/oracles/{id}',
    operationId: 'GetOracle',
    summary: 'An oracle',
    params: ['path:id'],
    resource: getOracle,
  },
  {
    path: '/oracles/{id}/queries',
    operationId: 'GetOracleQueries',
    summary: "An oracle's queries",
    params: ['path:id', ...PAGED],
    resource: getOracleQueries,
  },
  {
    path: '/oracles/{id}/responses',
    operationId: 'GetOracleResponses',
    summary: "An oracle's responses",
    params: ['path:id', ...PAGED],
    resource: getOracleResponses,
  },
  {
    path: '/oracles/{id}/extends',
    operationId: 'GetOracleExtends',
    summary: "An oracle's extensions",
    params: ['path:id', ...PAGED],
    resource: getOracleExtends,
  },
  {
    path: '/channels',
    operationId: 'GetChannels',
    summary: 'Channels by latest update',
    params: [...PAGED, 'query:state'],
    resource: getChannels,
  },
  {
    path: '/channels/{id}',
    operationId: 'GetChannel',
    summary: 'A channel',
    params: ['path:id'],
    resource: getChannel,
  },
  {
    path: '/channels/{id}/updates',
    operationId: 'GetChannelUpdates',
    summary: "A channel's transactions",
    params: ['path:id', ...PAGED],
    resource: getChannelUpdates,
  },

  {
    path: '/contracts',
    operationId: 'GetContracts',
    summary: 'Contracts by creation (ContractCreateTx, GAAttachTx)',
    params: SCOPED,
    resource: getContracts,
  },
  {
    path: '/contracts/calls',
    operationId: 'GetContractCalls',
    summary: 'Internal contract calls (Chain.spend, Call.amount, AENS.*, Oracle.*), as the node re-runs the calls',
    params: [...SCOPED, 'query:contract_id', 'query:contract', 'query:function'],
    resource: getContractCalls,
  },
  {
    path: '/contracts/call-transactions',
    operationId: 'GetContractCallTransactions',
    summary: 'Contract calls the chain holds as transactions, decoded',
    params: [...SCOPED, 'query:contract_id', 'query:contract', 'query:caller_id', 'query:function'],
    resource: getContractCallTransactions,
  },
  {
    path: '/contracts/logs',
    operationId: 'GetContractLogs',
    summary: 'Event logs of contract calls',
    params: [...SCOPED, 'query:contract_id', 'query:event', 'query:aexn-args'],
    resource: getContractLogs,
  },
  {
    path: '/contracts/{id}',
    operationId: 'GetContract',
    summary: 'A contract and its creation',
    params: ['path:id'],
    resource: getContract,
  },
  {
    path: '/contracts/{id}/logs',
    operationId: 'GetContractLogsById',
    summary: "A contract's event logs",
    params: ['path:id', ...SCOPED, 'query:event', 'query:aexn-args'],
    resource: getContractLogs,
  },
  {
    path: '/contracts/{id}/calls',
    operationId: 'GetContractCallsById',
    summary: "The internal calls a contract's calls made",
    params: ['path:id', ...SCOPED, 'query:function'],
    resource: getContractCalls,
  },
  {
    path: '/contracts/{id}/call-transactions',
    operationId: 'GetContractCallTransactionsById',
    summary: "A contract's calls the chain holds as transactions",
    params: ['path:id', ...SCOPED, 'query:caller_id', 'query:function'],
    resource: getContractCallTransactions,
  },

  {
    path: '/transfers',
    operationId: 'GetTransfers',
    summary: 'Internal transfers',
    params: [...SCOPED, 'query:kind', 'query:account'],
    resource: getTransfers,
  },
  {
    path: '/accounts/{id}/activities',
    operationId: 'GetAccountActivities',
    summary:
      "An id's activities: transactions, internal transfers, token transfers, swaps, a name's claims, calls reaching a contract",
    params: ['path:id', ...SCOPED, 'query:type', 'query:owned_only'],
    resource: getAccountActivities,
  },
  // an account's whole lists, streamed (export-routes.ts)
  {
    path: '/accounts/{id}/transactions/export',
    operationId: 'ExportAccountTransactions',
    export: 'transactions',
    item: 'Transaction',
    list: '/transactions?account={id}',
    filters: ['type', 'type_group'],
    columns: TRANSACTION_COLUMNS,
  },
  {
    path: '/accounts/{id}/activities/export',
    operationId: 'ExportAccountActivities',
    export: 'activities',
    item: 'Activity',
    list: '/accounts/{id}/activities',
    filters: ['type', 'owned_only'],
    columns: ACTIVITY_COLUMNS,
  },
  // the DEX (dex.ts)
  {
    path: '/dex/swaps',
    operationId: 'GetDexSwaps',
    summary: 'DEX swaps',
    params: PAGED,
    resource: getDexSwaps,
  },
  {
    path: '/dex/{contractId}/swaps',
    operationId: 'GetDexSwapsByContractId',
    summary: 'DEX swaps of a pair, or of the pairs of a token',
    params: ['path:contractId', ...PAGED],
    resource: getDexSwapsByContractId,
  },
  {
    path: '/debug/dex/{contractId}/swaps',
    operationId: 'GetDebugDexSwaps',
    summary: "DEX swaps a token took part in (ae_mdw's debug route)",
    params: ['path:contractId', ...PAGED],
    resource: getDebugDexSwaps,
  },
  {
    path: '/accounts/{accountId}/dex/swaps',
    operationId: 'GetAccountDexSwaps',
    summary: "An account's DEX swaps",
    params: ['path:accountId', ...PAGED],
    resource: getAccountDexSwaps,
  },
  // AEX-9 tokens (aex9.ts)
  {
    path: '/aex9',
    operationId: 'GetSortedAex9Tokens',
    summary: 'AEX-9 tokens by name, symbol or creation',
    params: [...PAGED, 'query:by', 'query:prefix', 'query:exact'],
    resource: getSortedAex9Tokens,
  },
  {
    path: '/aex9/count',
    operationId: 'GetAex9TokensCount',
    summary: 'The number of AEX-9 tokens',
    params: [],
    resource: getAex9TokensCount,
  },
  {
    path: '/aex9/{id}',
    operationId: 'GetAex9ByContract',
    summary: 'An AEX-9 token',
    params: ['path:id'],
    resource: getAex9ByContract,
  },
  {
    path: '/aex9/{contractId}/balances',
    operationId: 'GetAex9ContractBalances',
    summary: "A token's holders, now or at a block",
    params: ['path:contractId', ...PAGED, 'query:by', 'query:block_hash', 'query:height'],
    resource: getAex9ContractBalances,
  },
  {
    path: '/aex9/{contractId}/balances/{accountId}',
    operationId: 'GetAex9ContractAccountBalance',
    summary: "An account's balance of a token, now, at a block hash or at a height",
    params: ['path:contractId', 'path:accountId', 'query:hash', 'query:height'],
    resource: getAex9ContractAccountBalance,
  },
  {
    path: '/aex9/{contractId}/balances/{accountId}/history',
    operationId: 'GetAex9ContractAccountBalanceHistory',
    summary: "An account's balance of a token at each generation",
    params: ['path:contractId', 'path:accountId', ...SCOPED],
    resource: getAex9ContractAccountBalanceHistory,
  },
  {
    path: '/accounts/{accountId}/balance',
    operationId: 'GetAccountAeBalance',
    summary:
      "An account's (or a contract's, by its ct_ id) AE balance after generation `height=H` (all its micro blocks: not the node's `/v3/accounts/{id}/height/H`, the state at key block H, which is `hash=` that key block's hash here), after the key or micro block `hash=` names (as the node's `/v3/accounts/{id}/hash/{hash}`), or after the last block at or before `time=` (unix seconds); `block_hash` is the block it is after; and its last change",
    params: ['path:accountId', 'query:height', 'query:hash', 'query:time'],
    resource: getAccountBalance,
  },
  {
    path: '/accounts/{accountId}/balance/history',
    operationId: 'GetAccountAeBalanceHistory',
    summary:
      "Every change of an account's AE balance, with its cause and the balance after it; with `interval_by=day|week|month` its balance at the end of each such interval in which it changed",
    params: ['path:accountId', 'query:interval_by', ...SCOPED],
    resource: getAccountBalanceHistory,
  },
  BALANCES_POST,
  {
    path: '/accounts/{accountId}/aex9/balances',
    operationId: 'GetAex9AccountBalances',
    summary: "An account's AEX-9 balances",
    params: ['path:accountId', ...PAGED],
    resource: getAex9AccountBalances,
  },
  {
    path: '/aex9/{contractId}/transfers',
    operationId: 'GetAex9ContractTransfers',
    summary: "A token's transfers from, to or of an account",
    params: ['path:contractId', ...PAGED, 'query:sender', 'query:recipient', 'query:account'],
    resource: getAex9ContractTransfers,
  },
  // AEX-141 (aex141.ts)
  {
    path: '/aex141',
    operationId: 'GetSortedAex141Contracts',
    summary: 'NFT collections by creation, name or symbol',
    params: [...PAGED, 'query:by', 'query:prefix', 'query:exact'],
    resource: getSortedAex141Contracts,
  },
  {
    path: '/aex141/count',
    operationId: 'GetAex141Count',
    summary: 'The number of NFT collections (ae_mdw router only: not in its spec)',
    params: [],
    resource: getAex141Count,
  },
  {
    path: '/aex141/transfers',
    operationId: 'GetAex141Transfers',
    summary: 'NFT transfers of every collection, optionally from and/or to an account (ae_mdw router only)',
    params: [...PAGED, 'query:from', 'query:to'],
    resource: getAex141Transfers,
  },
  {
    path: '/aex141/{id}',
    operationId: 'GetAex141ByContract',
    summary: 'An NFT collection',
    params: ['path:id'],
    resource: getAex141ByContract,
  },
  {
    path: '/aex141/{contractId}/tokens',
    operationId: 'GetAex141ContractTokens',
    summary: "A collection's tokens and their owners",
    params: ['path:contractId', ...PAGED],
    resource: getAex141ContractTokens,
  },
  {
    path: '/aex141/{contractId}/tokens/{tokenId}',
    operationId: 'GetAex141TokenOwner',
    summary: "A token's owner",
    params: ['path:contractId', 'path:tokenId'],
    resource: getAex141TokenOwner,
  },
  {
    path: '/aex141/{contractId}/templates',
    operationId: 'GetAex141ContractTemplates',
    summary: "A collection's templates",
    params: ['path:contractId', ...PAGED],
    resource: getAex141ContractTemplates,
  },
  {
    path: '/aex141/{contractId}/templates/{templateId}/tokens',
    operationId: 'GetAex141TemplateTokens',
    summary: 'The tokens minted from a template',
    params: ['path:contractId', 'path:templateId', ...PAGED],
    resource: getAex141TemplateTokens,
  },
  {
    path: '/aex141/{contractId}/transfers',
    operationId: 'GetAex141ContractTransfers',
    summary: "A collection's transfers, optionally from and/or to an account",
    params: ['path:contractId', ...PAGED, 'query:from', 'query:to'],
    resource: getAex141ContractTransfers,
  },
  {
    path: '/accounts/{accountId}/aex141/tokens',
    operationId: 'GetAex141OwnedTokens',
    summary: "An account's NFTs, optionally of one collection",
    params: ['path:accountId', ...PAGED, 'query:contract'],
    resource: getAex141OwnedTokens,
  },
  ...STATS_OPERATIONS,
  ...HYPERCHAIN_OPERATIONS,
  ...WEBHOOKS_OPERATIONS,
];

/** V3_OPERATIONS: the routes answered by a resource's value (the route table less its exports and handled routes). */
export const V3_OPERATIONS: readonly V3Operation[] = V3_ROUTES.filter(
  (route): route is V3Operation => !isExport(route) && !isHandled(route),
);

/** V3_EXPORTS: the routes whose answer is a stream. */
export const V3_EXPORTS: readonly V3Export[] = V3_ROUTES.filter(isExport);

/** V3_HANDLED: the routes that answer the request themselves (the webhooks API, POST /accounts/balances). */
export const V3_HANDLED: readonly V3Handled[] = V3_ROUTES.filter(isHandled);

/** V3_SHAPES: the answers' shape tables, from which the /v3/api document's components are generated. */
export const V3_SHAPES: readonly Shape[] = [...new Set([...answerShapes(V3_OPERATIONS), ...handledShapes(V3_HANDLED)])];
