/**
 * @module ae_mdw's GraphQL object types, field for field as its schema names them (1.107), each over the REST
 * answer of the same resource. Beyond ae_mdw: a transaction's `block` and a micro block's `keyBlock`, loaded in
 * batches (loaders.ts).
 */
import { GraphQLEnumType, type GraphQLFieldConfig, type GraphQLObjectType } from 'graphql';
import { B, Bool, F, I, J, list, objectType, S } from './object-types.ts';
import type { GraphQLContext, Loaders, RestObject } from './context.ts';

/** enumOf is one of ae_mdw's enums: Absinthe's upper-case names, each standing for its lower-case REST value. */
export function enumOf(name: string, values: readonly string[]): GraphQLEnumType {
  return new GraphQLEnumType({
    name,
    values: Object.fromEntries(values.map((v) => [v.toUpperCase().replace(/-/g, '_'), { value: v }])),
  });
}

/** loaded is a field of ours (beyond ae_mdw) whose objects a page's items share, read in one batch per page. */
function loaded(
  type: GraphQLObjectType<RestObject, GraphQLContext>,
  description: string,
  load: (source: RestObject, loaders: Loaders) => Promise<RestObject | null>,
): GraphQLFieldConfig<RestObject, GraphQLContext> {
  return {
    type,
    description: `${description} (beyond ae_mdw; read in one batch per page)`,
    resolve: (source, _args, { loaders }) => load(source, loaders),
  };
}

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
  keyBlock: loaded(KeyBlock, 'the key block of its generation', (m, { keyBlock }) => keyBlock.load(m.height as number)),
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
  block: loaded(MicroBlock, 'the micro block holding it', (t, { microBlock }) =>
    microBlock.load(t.block_hash as string),
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

export const Name = objectType('Name', {
  active: Bool,
  name: S,
  type: S,
  hash: S,
  nameFee: B,
  pointers: list(J),
  revoke: J,
  expireHeight: I,
  claimsCount: I,
  auctionTimeout: I,
  auction: J,
  activeFrom: I,
  approximateExpireTime: I,
  ownership: J,
  approximateActivationTime: I,
});

const nameEvent = {
  height: I,
  blockHash: S,
  tx: J,
  activeFrom: I,
  internalSource: Bool,
  sourceTxHash: S,
  sourceTxType: S,
};
export const NameClaim = objectType('NameClaim', nameEvent);
export const NameUpdate = objectType('NameUpdate', nameEvent);
export const NameTransfer = objectType('NameTransfer', nameEvent);

export const Auction = objectType('Auction', {
  name: S,
  nameFee: B,
  claimsCount: I,
  approximateExpireTime: I,
  lastBid: J,
  auctionEnd: I,
  activationTime: I,
});

export const Pointee = objectType('Pointee', {
  active: Bool,
  name: S,
  key: S,
  blockHash: S,
  tx: J,
  blockHeight: I,
  blockTime: I,
  sourceTxHash: S,
  sourceTxType: S,
});

export const Aex9Contract = objectType('Aex9Contract', {
  decimals: I,
  invalid: Bool,
  name: S,
  extensions: list(S),
  symbol: S,
  contractId: S,
  contractTxHash: S,
  invalidDescription: S,
  invalidReason: S,
  eventSupply: B,
  holders: I,
  initialSupply: B,
  logsCount: I,
});

export const Aex9ContractBalance = objectType('Aex9ContractBalance', {
  height: I,
  amount: B,
  contractId: S,
  blockHash: S,
  accountId: S,
  lastTxHash: S,
  lastLogIdx: I,
});

export const Aex9BalanceHistoryItem = objectType('Aex9BalanceHistoryItem', {
  contract: S,
  account: S,
  height: I,
  amount: B,
});

export const Aex9Balance = objectType('Aex9Balance', { contract: S, account: S, amount: B });

export const Aex9AccountBalance = objectType('Aex9AccountBalance', {
  decimals: I,
  height: I,
  amount: B,
  contractId: S,
  blockHash: S,
  txHash: S,
  txType: S,
  txIndex: I,
  tokenName: S,
  tokenSymbol: S,
});

export const Aex9Transfer = objectType('Aex9Transfer', {
  amount: B,
  contractId: S,
  recipient: S,
  txHash: S,
  sender: S,
  blockHeight: I,
  logIdx: I,
  microIndex: I,
  microTime: I,
});

export const Aex141Contract = objectType('Aex141Contract', {
  invalid: Bool,
  name: S,
  extensions: list(S),
  symbol: S,
  contractId: S,
  blockHeight: I,
  creationTime: I,
  nftOwners: I,
  nftsAmount: I,
  contractTxHash: S,
  invalidReason: S,
  invalidDescription: S,
  baseUrl: S,
  limits: J,
  metadataType: S,
});

export const Aex141Transfer = objectType('Aex141Transfer', {
  contractId: S,
  recipient: S,
  txHash: S,
  sender: S,
  blockHeight: I,
  logIdx: I,
  callTxi: I,
  microIndex: I,
  microTime: I,
  tokenId: I,
});

export const Aex141Token = objectType('Aex141Token', { ownerId: S, contractId: S, tokenId: I });

export const Aex141TokenWithMetadata = objectType('Aex141TokenWithMetadata', {
  owner: S,
  metadata: J,
  contractId: S,
  tokenId: I,
});

export const Aex141Template = objectType('Aex141Template', {
  contractId: S,
  templateId: I,
  txHash: S,
  logIdx: I,
  edition: J,
});

export const Aex141TemplateToken = objectType('Aex141TemplateToken', {
  edition: S,
  tokenId: I,
  ownerId: S,
  txHash: S,
  logIdx: I,
});

export const Channel = objectType('Channel', {
  active: Bool,
  channel: S,
  amount: B,
  responder: S,
  initiator: S,
  stateHash: S,
  lastUpdatedHeight: I,
  lastUpdatedTime: I,
  lastUpdatedTxHash: S,
  lastUpdatedTxType: S,
  updatesCount: I,
  channelReserve: B,
  delegateIds: J,
  initiatorAmount: B,
  lockPeriod: I,
  lockedUntil: I,
  responderAmount: B,
  round: I,
  soloRound: I,
});

export const ChannelUpdate = objectType('ChannelUpdate', {
  channel: S,
  blockHash: S,
  tx: J,
  txType: S,
  sourceTxHash: S,
  sourceTxType: S,
});

export const Contract = objectType('Contract', {
  contract: S,
  blockHash: S,
  createTx: J,
  aexnType: S,
  sourceTxHash: S,
  sourceTxType: S,
});

export const ContractLog = objectType('ContractLog', {
  args: list(S),
  data: S,
  height: I,
  contractId: S,
  blockHash: S,
  eventName: S,
  logIdx: I,
  blockTime: I,
  callTxHash: S,
  contractTxHash: S,
  microIndex: I,
  eventHash: S,
  extCallerContractId: S,
  extCallerContractTxHash: S,
  parentContractId: S,
});

export const ContractCall = objectType('ContractCall', {
  function: S,
  height: I,
  contractId: S,
  blockHash: S,
  callTxHash: S,
  contractTxHash: S,
  internalTx: J,
  localIdx: I,
  microIndex: I,
});

export const Oracle = objectType('Oracle', {
  active: Bool,
  register: J,
  format: J,
  oracle: S,
  queryFee: B,
  expireHeight: I,
  activeFrom: I,
  approximateExpireTime: I,
  registerTime: I,
  registerTxHash: S,
});

const oracleResponse = {
  height: I,
  blockHash: S,
  queryId: S,
  blockTime: I,
  sourceTxHash: S,
  sourceTxType: S,
  fee: B,
  nonce: I,
  oracleId: S,
  responseTtl: J,
  ttl: I,
};
export const OracleResponse = objectType('OracleResponse', { ...oracleResponse, response: S });
export const OracleQuery = objectType('OracleQuery', {
  ...oracleResponse,
  response: OracleResponse,
  query: S,
  queryFee: B,
  queryTtl: J,
  senderId: S,
});

export const OracleExtend = objectType('OracleExtend', {
  height: I,
  blockHash: S,
  sourceTxHash: S,
  sourceTxType: S,
  tx: J,
});

export const Swap = objectType('Swap', {
  caller: S,
  action: S,
  height: I,
  txHash: S,
  logIdx: I,
  amounts: J,
  microTime: I,
  fromAmount: B,
  fromContract: S,
  fromDecimals: I,
  fromToken: S,
  toAccount: S,
  toAmount: B,
  toContract: S,
  toDecimals: I,
  toToken: S,
});

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

export const Status = objectType('Status', {
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
});
