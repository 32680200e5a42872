/**
 * @module ae_mdw's GraphQL object types over what the chain holds (1.107, field for field as its schema names them),
 * each over the REST answer of the same resource: names, tokens, channels, contracts, oracles, DEX swaps.
 */
import { B, Bool, I, J, list, objectType, S } from './object-types.ts';

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
export const NameHistory = objectType('NameHistory', { ...nameEvent, expiredAt: I });

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
