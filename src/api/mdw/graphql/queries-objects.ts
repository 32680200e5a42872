/** @module ae_mdw's query fields over what the chain holds: names, contracts, channels, oracles, tokens, DEX swaps. */
import { GraphQLBoolean, GraphQLNonNull } from 'graphql';
import { IntScalar } from './scalars.ts';
import { byId, countOf, optionalString, pageById, requiredString, type QueryField } from './fields.ts';
import { enumOf } from './object-types.ts';
import { shapeType } from './shape-types.ts';
import { OracleQuery } from './types-objects.ts';
import * as nftShapes from '../../../shapes/v3/shapes-aex141.ts';
import * as aex9Shapes from '../../../shapes/v3/shapes-aex9.ts';
import { CHANNEL, CHANNEL_UPDATE } from '../../../shapes/v3/shapes-channels.ts';
import { CONTRACT, CONTRACT_CALL, CONTRACT_CALL_TX, CONTRACT_LOG } from '../../../shapes/v3/shapes-contracts.ts';
import { DEX_SWAP } from '../../../shapes/v3/shapes-dex.ts';
import { AUCTION, NAME, NAME_EVENT, NAME_HISTORY, POINTEE } from '../../../shapes/v3/shapes-names.ts';
import { ORACLE, ORACLE_EXTEND, ORACLE_RESPONSE } from '../../../shapes/v3/shapes-oracles.ts';
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

export const NAME_QUERIES: Readonly<Record<string, QueryField>> = {
  name: byId(names.getName, shapeType(NAME), 'A name by name or hash'),
  names: {
    op: names.getNames,
    type: shapeType(NAME),
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
    type: shapeType(NAME),
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
  nameClaims: pageById(names.getNameClaims, shapeType(NAME_EVENT, {}, 'NameClaim'), 'Claims and bids of a name'),
  nameUpdates: pageById(names.getNameUpdates, shapeType(NAME_EVENT, {}, 'NameUpdate'), 'Updates of a name'),
  nameTransfers: pageById(names.getNameTransfers, shapeType(NAME_EVENT, {}, 'NameTransfer'), 'Transfers of a name'),
  nameHistory: pageById(getNameHistory, shapeType(NAME_HISTORY), 'Everything that happened to a name'),
  auction: byId(names.getNameAuction, shapeType(AUCTION), 'A name in auction'),
  auctions: {
    op: names.getNamesAuctions,
    type: shapeType(AUCTION),
    list: 'paged',
    args: { orderBy: { type: AuctionOrder, to: 'query:by', defaultValue: 'expiration' } },
    values: { orderBy: { expiration: '' } },
    description: 'Names in auction',
  },
  auctionClaims: pageById(
    names.getNameClaims,
    shapeType(NAME_EVENT, {}, 'NameClaim'),
    'Claims and bids of a name in auction',
  ),
  accountNameClaims: {
    op: names.getAccountNameClaims,
    type: shapeType(NAME_EVENT, {}, 'NameClaim'),
    list: 'paged',
    args: { accountId: requiredString('path:id') },
    description: 'Name claims of an account',
  },
  accountNamePointees: {
    op: names.getAccountPointees,
    type: shapeType(POINTEE),
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
    type: shapeType(CONTRACT),
    list: 'scoped',
    description: 'Contracts by creation',
  },
  contract: byId(contracts.getContract, shapeType(CONTRACT), 'A contract'),
  contractsLogs: {
    op: contracts.getContractLogs,
    type: shapeType(CONTRACT_LOG),
    list: 'scoped',
    args: { contractId: optionalString('query:contract_id'), ...logFilters },
    description: 'Event logs of contract calls',
  },
  contractLogs: {
    op: contracts.getContractLogs,
    type: shapeType(CONTRACT_LOG),
    list: 'scoped',
    args: { id: requiredString('path:id'), ...logFilters },
    description: "A contract's event logs",
  },
  contractsCalls: {
    op: contracts.getContractCalls,
    type: shapeType(CONTRACT_CALL),
    list: 'scoped',
    description: 'Internal contract calls',
  },
  contractCalls: {
    op: contracts.getContractCalls,
    type: shapeType(CONTRACT_CALL),
    list: 'scoped',
    args: { id: requiredString('path:id') },
    description: "The internal calls a contract's calls made",
  },
  contractsCallTransactions: {
    op: contracts.getContractCallTransactions,
    type: shapeType(CONTRACT_CALL_TX),
    list: 'scoped',
    description: 'Contract calls the chain holds as transactions',
  },
  contractCallTransactions: {
    op: contracts.getContractCallTransactions,
    type: shapeType(CONTRACT_CALL_TX),
    list: 'scoped',
    args: { id: requiredString('path:id') },
    description: "A contract's calls the chain holds as transactions",
  },
};

const ActiveState = (name: string) => enumOf(name, ['active', 'inactive']);

export const CHANNEL_QUERIES: Readonly<Record<string, QueryField>> = {
  channels: {
    op: getChannels,
    type: shapeType(CHANNEL),
    list: 'paged',
    args: { state: { type: ActiveState('ChannelState'), to: 'query:state' } },
    description: 'Channels',
  },
  channel: byId(getChannel, shapeType(CHANNEL), 'A channel'),
  channelUpdates: pageById(getChannelUpdates, shapeType(CHANNEL_UPDATE), "A channel's updates"),
};

export const ORACLE_QUERIES: Readonly<Record<string, QueryField>> = {
  oracles: {
    op: getOracles,
    type: shapeType(ORACLE),
    list: 'scoped',
    args: { state: { type: ActiveState('OracleState'), to: 'query:state' } },
    description: 'Oracles',
  },
  oracle: byId(getOracle, shapeType(ORACLE), 'An oracle'),
  oracleQueries: pageById(getOracleQueries, OracleQuery, "An oracle's queries"),
  oracleResponses: pageById(getOracleResponses, shapeType(ORACLE_RESPONSE), "An oracle's responses"),
  oracleExtends: pageById(getOracleExtends, shapeType(ORACLE_EXTEND), "An oracle's extensions"),
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
    type: shapeType(aex9Shapes.AEX9_TOKEN),
    list: 'paged',
    args: sortedBy(Aex9ContractOrderBy),
    description: 'AEX-9 tokens',
  },
  aex9Contract: byId(aex9.getAex9ByContract, shapeType(aex9Shapes.AEX9_TOKEN), 'An AEX-9 token'),
  aex9ContractBalances: {
    op: aex9.getAex9ContractBalances,
    type: shapeType(aex9Shapes.AEX9_CONTRACT_BALANCE),
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
    type: shapeType(aex9Shapes.AEX9_BALANCE_HISTORY_ITEM),
    list: 'scoped',
    args: { contractId, accountId },
    description: "An account's balance of a token per generation",
  },
  aex9TokenBalance: {
    op: aex9.getAex9ContractAccountBalance,
    type: shapeType(aex9Shapes.AEX9_ACCOUNT_BALANCE),
    args: { contractId, accountId, hash: optionalString('query:hash') },
    description: "An account's balance of a token",
  },
  aex9AccountBalances: {
    op: aex9.getAex9AccountBalances,
    type: shapeType(aex9Shapes.AEX9_BALANCE),
    list: 'paged',
    args: { accountId },
    description: "An account's AEX-9 balances",
  },
  aex9ContractTransfers: {
    op: aex9.getAex9ContractTransfers,
    type: shapeType(aex9Shapes.AEX9_TRANSFER),
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
    type: shapeType(nftShapes.AEX141_COLLECTION),
    list: 'paged',
    args: sortedBy(Aex141ContractOrderBy),
    description: 'NFT collections',
  },
  aex141Contract: byId(aex141.getAex141ByContract, shapeType(nftShapes.AEX141_COLLECTION), 'An NFT collection'),
  aex141Transfers: {
    op: aex141.getAex141Transfers,
    type: shapeType(nftShapes.AEX141_TRANSFER),
    list: 'paged',
    args: fromTo,
    description: 'NFT transfers',
  },
  aex141ContractTransfers: {
    op: aex141.getAex141ContractTransfers,
    type: shapeType(nftShapes.AEX141_TRANSFER),
    list: 'paged',
    args: { contractId, ...fromTo },
    description: "A collection's transfers",
  },
  aex141ContractTokens: {
    op: aex141.getAex141ContractTokens,
    type: shapeType(nftShapes.AEX141_TOKEN),
    list: 'paged',
    args: { contractId },
    description: "A collection's tokens",
  },
  aex141ContractToken: {
    op: aex141.getAex141TokenOwner,
    type: shapeType(nftShapes.AEX141_TOKEN_DETAIL),
    args: { contractId, tokenId: requiredString('path:tokenId') },
    description: 'A token, its owner and metadata',
  },
  aex141AccountTokens: {
    op: aex141.getAex141OwnedTokens,
    type: shapeType(nftShapes.AEX141_TOKEN),
    list: 'paged',
    args: { accountId, contract: optionalString('query:contract') },
    description: "An account's NFTs",
  },
  aex141ContractTemplates: {
    op: aex141.getAex141ContractTemplates,
    type: shapeType(nftShapes.AEX141_TEMPLATE),
    list: 'paged',
    args: { contractId },
    description: "A collection's templates",
  },
  aex141ContractTemplateTokens: {
    op: aex141.getAex141TemplateTokens,
    type: shapeType(nftShapes.AEX141_TEMPLATE_TOKEN),
    list: 'paged',
    args: { contractId, templateId: { type: new GraphQLNonNull(IntScalar), to: 'path:templateId' } },
    description: 'The tokens of a template',
  },
};

export const DEX_QUERIES: Readonly<Record<string, QueryField>> = {
  swaps: { op: getDexSwaps, type: shapeType(DEX_SWAP), list: 'paged', description: 'DEX swaps' },
  accountSwaps: {
    op: getAccountDexSwaps,
    type: shapeType(DEX_SWAP),
    list: 'paged',
    args: { accountId: requiredString('path:accountId') },
    description: "An account's swaps",
  },
  contractSwaps: {
    op: getDexSwapsByContractId,
    type: shapeType(DEX_SWAP),
    list: 'paged',
    args: { contractId: requiredString('path:contractId') },
    description: 'Swaps of a pair or of the pairs of a token',
  },
};
