/** @module ae_mdw's query fields over what the chain holds: names, contracts, channels, oracles, tokens, DEX swaps. */
import { GraphQLBoolean, GraphQLNonNull } from 'graphql';
import { IntScalar } from './scalars.ts';
import { byId, countOf, optionalString, pageById, requiredString, type QueryField } from './fields.ts';
import { enumOf } from './object-types.ts';
import { shapeType } from './shape-types.ts';
import { OracleQuery } from './types-objects.ts';
import { NAME_EVENT, NAME_HISTORY } from '../../../shapes/v3/shapes-names.ts';
import * as aex141 from '../resources/aex141.ts';
import * as aex9 from '../resources/aex9.ts';
import { getChannel, getChannelUpdates, getChannels } from '../resources/channels.ts';
import * as contracts from '../resources/contracts.ts';
import { getAccountDexSwaps, getDexSwaps, getDexSwapsByContractId } from '../resources/dex.ts';
import { getNameHistory } from '../resources/name-history.ts';
import * as names from '../resources/names.ts';
import { getOracle, getOracleExtends, getOracleQueries, getOracleResponses, getOracles } from '../resources/oracles.ts';

const NameState = enumOf('NameState', ['active', 'inactive']);
// ae_mdw's `expiration` is the REST order `deactivation`
const NameOrder = enumOf('NameOrder', ['expiration', 'activation', 'deactivation', 'name']);
// ae_mdw's auctions by name are not served (the REST list has the one order): NAME is refused as an unknown value
const AuctionOrder = enumOf('AuctionOrder', ['expiration']);
const NAME_ORDER_VALUES: Readonly<Record<string, string>> = { expiration: 'deactivation' };
/** ae_mdw's type of a name's claims and bids (NAME_EVENT's answers under its first GraphQL name) */
const NameClaim = shapeType(NAME_EVENT, {}, 'NameClaim');

export const NAME_QUERIES: Readonly<Record<string, QueryField>> = {
  name: byId(names.getName, 'A name by name or hash'),
  names: {
    op: names.getNames,
    list: 'paged',
    args: {
      orderBy: { type: NameOrder, to: 'query:by', defaultValue: 'expiration' },
      ownedBy: optionalString('query:owned_by'),
      prefix: optionalString('query:prefix'),
      state: { type: NameState, to: 'query:state' },
    },
    values: { orderBy: NAME_ORDER_VALUES },
    description: 'Names',
  },
  searchNames: {
    op: names.getNames,
    list: 'paged',
    args: { prefix: requiredString('query:prefix') },
    fixed: { by: 'name' },
    description: 'Names starting with a prefix',
  },
  namesCount: {
    op: names.getNamesCount,
    type: IntScalar,
    args: { ownedBy: optionalString('query:owned_by') },
    description: 'Active names',
  },
  // one shape under ae_mdw's three GraphQL names
  nameClaims: { ...pageById(names.getNameClaims, 'Claims and bids of a name'), type: NameClaim },
  nameUpdates: {
    ...pageById(names.getNameUpdates, 'Updates of a name'),
    type: shapeType(NAME_EVENT, {}, 'NameUpdate'),
  },
  nameTransfers: {
    ...pageById(names.getNameTransfers, 'Transfers of a name'),
    type: shapeType(NAME_EVENT, {}, 'NameTransfer'),
  },
  // REST's NameHistoryItem is a union of transactions; GraphQL's its one object type
  nameHistory: { ...pageById(getNameHistory, 'Everything that happened to a name'), type: shapeType(NAME_HISTORY) },
  auction: byId(names.getNameAuction, 'A name in auction'),
  auctions: {
    op: names.getNamesAuctions,
    list: 'paged',
    args: { orderBy: { type: AuctionOrder, to: 'query:by', defaultValue: 'expiration' } },
    values: { orderBy: { expiration: '' } },
    description: 'Names in auction',
  },
  auctionClaims: { ...pageById(names.getNameClaims, 'Claims and bids of a name in auction'), type: NameClaim },
  accountNameClaims: {
    op: names.getAccountNameClaims,
    type: NameClaim,
    list: 'paged',
    args: { accountId: requiredString('path:id') },
    description: 'Name claims of an account',
  },
  accountNamePointees: {
    op: names.getAccountPointees,
    list: 'paged',
    args: { accountId: requiredString('path:id') },
    description: 'Names pointing at an id',
  },
};

const logFilters = {
  event: optionalString('query:event'),
  aexnArgs: { type: GraphQLBoolean, to: 'query:aexn-args' },
} as const;

export const CONTRACT_QUERIES: Readonly<Record<string, QueryField>> = {
  contracts: {
    op: contracts.getContracts,
    list: 'scoped',
    description: 'Contracts by creation',
  },
  contract: byId(contracts.getContract, 'A contract'),
  contractsLogs: {
    op: contracts.getContractLogs,
    list: 'scoped',
    args: { contractId: optionalString('query:contract_id'), ...logFilters },
    description: 'Event logs of contract calls',
  },
  contractLogs: {
    op: contracts.getContractLogs,
    list: 'scoped',
    args: { id: requiredString('path:id'), ...logFilters },
    description: "A contract's event logs",
  },
  contractsCalls: {
    op: contracts.getContractCalls,
    list: 'scoped',
    description: 'Internal contract calls',
  },
  contractCalls: {
    op: contracts.getContractCalls,
    list: 'scoped',
    args: { id: requiredString('path:id') },
    description: "The internal calls a contract's calls made",
  },
  contractsCallTransactions: {
    op: contracts.getContractCallTransactions,
    list: 'scoped',
    description: 'Contract calls the chain holds as transactions',
  },
  contractCallTransactions: {
    op: contracts.getContractCallTransactions,
    list: 'scoped',
    args: { id: requiredString('path:id') },
    description: "A contract's calls the chain holds as transactions",
  },
};

const ActiveState = (name: string) => enumOf(name, ['active', 'inactive']);

export const CHANNEL_QUERIES: Readonly<Record<string, QueryField>> = {
  channels: {
    op: getChannels,
    list: 'paged',
    args: { state: { type: ActiveState('ChannelState'), to: 'query:state' } },
    description: 'Channels',
  },
  channel: byId(getChannel, 'A channel'),
  channelUpdates: pageById(getChannelUpdates, "A channel's updates"),
};

export const ORACLE_QUERIES: Readonly<Record<string, QueryField>> = {
  oracles: {
    op: getOracles,
    list: 'scoped',
    args: { state: { type: ActiveState('OracleState'), to: 'query:state' } },
    description: 'Oracles',
  },
  oracle: byId(getOracle, 'An oracle'),
  // a query's type has its response beside the table's fields (types-objects.ts)
  oracleQueries: { ...pageById(getOracleQueries, "An oracle's queries"), type: OracleQuery },
  oracleResponses: pageById(getOracleResponses, "An oracle's responses"),
  oracleExtends: pageById(getOracleExtends, "An oracle's extensions"),
};

const Aex9ContractOrderBy = enumOf('Aex9ContractOrderBy', ['creation', 'name', 'symbol']);
const Aex141ContractOrderBy = enumOf('Aex141ContractOrderBy', ['creation', 'name', 'symbol']);

/** sortedBy are the arguments of a list of token contracts: its order, and a prefix or the whole of their names. */
const sortedBy = (orderBy: typeof Aex9ContractOrderBy) =>
  ({
    orderBy: { type: orderBy, to: 'query:by', defaultValue: 'creation' },
    prefix: optionalString('query:prefix'),
    exact: optionalString('query:exact'),
  }) as const;
const Aex9BalanceOrderBy = enumOf('Aex9BalanceOrderBy', ['pubkey', 'amount']);
const contractId = requiredString('path:contractId');
const accountId = requiredString('path:accountId');

export const AEX9_QUERIES: Readonly<Record<string, QueryField>> = {
  aex9Count: { op: aex9.getAex9TokensCount, type: IntScalar, description: 'AEX-9 tokens', pick: countOf },
  aex9Contracts: {
    op: aex9.getSortedAex9Tokens,
    list: 'paged',
    args: sortedBy(Aex9ContractOrderBy),
    description: 'AEX-9 tokens',
  },
  aex9Contract: byId(aex9.getAex9ByContract, 'An AEX-9 token'),
  aex9ContractBalances: {
    op: aex9.getAex9ContractBalances,
    list: 'paged',
    args: {
      id: requiredString('path:contractId'),
      orderBy: { type: Aex9BalanceOrderBy, to: 'query:by', defaultValue: 'pubkey' },
      blockHash: optionalString('query:block_hash'),
    },
    description: "A token's holders",
  },
  aex9BalanceHistory: {
    op: aex9.getAex9ContractAccountBalanceHistory,
    list: 'scoped',
    args: { contractId, accountId },
    description: "An account's balance of a token per generation",
  },
  aex9TokenBalance: {
    op: aex9.getAex9ContractAccountBalance,
    args: { contractId, accountId, hash: optionalString('query:hash') },
    description: "An account's balance of a token",
  },
  aex9AccountBalances: {
    op: aex9.getAex9AccountBalances,
    list: 'paged',
    args: { accountId },
    description: "An account's AEX-9 balances",
  },
  aex9ContractTransfers: {
    op: aex9.getAex9ContractTransfers,
    list: 'paged',
    args: {
      contractId,
      sender: optionalString('query:sender'),
      recipient: optionalString('query:recipient'),
      account: optionalString('query:account'),
    },
    description: "A token's transfers",
  },
};

const fromTo = { from: optionalString('query:from'), to: optionalString('query:to') };

export const AEX141_QUERIES: Readonly<Record<string, QueryField>> = {
  aex141Count: { op: aex141.getAex141Count, type: IntScalar, description: 'NFT collections', pick: countOf },
  aex141Contracts: {
    op: aex141.getSortedAex141Contracts,
    list: 'paged',
    args: sortedBy(Aex141ContractOrderBy),
    description: 'NFT collections',
  },
  aex141Contract: byId(aex141.getAex141ByContract, 'An NFT collection'),
  aex141Transfers: {
    op: aex141.getAex141Transfers,
    list: 'paged',
    args: fromTo,
    description: 'NFT transfers',
  },
  aex141ContractTransfers: {
    op: aex141.getAex141ContractTransfers,
    list: 'paged',
    args: { contractId, ...fromTo },
    description: "A collection's transfers",
  },
  aex141ContractTokens: {
    op: aex141.getAex141ContractTokens,
    list: 'paged',
    args: { contractId },
    description: "A collection's tokens",
  },
  aex141ContractToken: {
    op: aex141.getAex141TokenOwner,
    args: { contractId, tokenId: requiredString('path:tokenId') },
    description: 'A token, its owner and metadata',
  },
  aex141AccountTokens: {
    op: aex141.getAex141OwnedTokens,
    list: 'paged',
    args: { accountId, contract: optionalString('query:contract') },
    description: "An account's NFTs",
  },
  aex141ContractTemplates: {
    op: aex141.getAex141ContractTemplates,
    list: 'paged',
    args: { contractId },
    description: "A collection's templates",
  },
  aex141ContractTemplateTokens: {
    op: aex141.getAex141TemplateTokens,
    list: 'paged',
    args: { contractId, templateId: { type: new GraphQLNonNull(IntScalar), to: 'path:templateId' } },
    description: 'The tokens of a template',
  },
};

export const DEX_QUERIES: Readonly<Record<string, QueryField>> = {
  swaps: { op: getDexSwaps, list: 'paged', description: 'DEX swaps' },
  accountSwaps: {
    op: getAccountDexSwaps,
    list: 'paged',
    args: { accountId: requiredString('path:accountId') },
    description: "An account's swaps",
  },
  contractSwaps: {
    op: getDexSwapsByContractId,
    list: 'paged',
    args: { contractId: requiredString('path:contractId') },
    description: 'Swaps of a pair or of the pairs of a token',
  },
};
