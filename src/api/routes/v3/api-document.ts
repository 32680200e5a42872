/** @module The OpenAPI 3 document of our /v3 (served at /v3/api), with response schemas, built from one table. Pure. */
import { LIMITS } from './params.ts';
import { MDW_COMPAT_VERSION } from './status.ts';
import { STATS_OPERATIONS, STATS_SCHEMAS } from './stats-document.ts';

/** A parameter: paging ones by name (`statsLimit` is the statistics' larger `limit`), others as `path:` or `query:`. */
export type ParamName =
  'limit' | 'statsLimit' | 'cursor' | 'direction' | 'rev' | 'scope' | `path:${string}` | `query:${string}`;

/** One operation: path (without /v3, as ae_mdw's spec writes it), ae_mdw's operationId, parameters and answer. */
export interface V3Operation {
  readonly path: string;
  readonly operationId: string;
  readonly summary: string;
  readonly params: readonly ParamName[];
  /** the schema of the answer: a component name, `Page<Name>` for a page of it, or `integer` */
  readonly response: string;
}

const PAGED: readonly ParamName[] = ['limit', 'cursor', 'direction', 'rev'];
const SCOPED: readonly ParamName[] = [...PAGED, 'scope'];
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

/** V3_OPERATIONS lists every /v3 route we answer. */
export const V3_OPERATIONS: readonly V3Operation[] = [
  { path: '/status', operationId: 'GetStatus', summary: 'Sync status', params: [], response: 'Status' },
  { path: '/api', operationId: 'GetApi', summary: 'This document', params: [], response: 'OpenApi' },
  {
    path: '/key-blocks',
    operationId: 'GetKeyBlocks',
    summary: 'Key blocks',
    params: SCOPED,
    response: 'Page<KeyBlock>',
  },
  {
    path: '/key-blocks/{hash_or_kbi}',
    operationId: 'GetKeyBlock',
    summary: 'A key block by hash or height',
    params: ['path:hash_or_kbi'],
    response: 'KeyBlock',
  },
  {
    path: '/key-blocks/{hash_or_kbi}/micro-blocks',
    operationId: 'GetKeyBlockMicroBlocks',
    summary: 'The micro blocks of a generation',
    params: ['path:hash_or_kbi', ...PAGED],
    response: 'Page<MicroBlock>',
  },
  {
    path: '/micro-blocks/{hash}',
    operationId: 'GetMicroBlock',
    summary: 'A micro block',
    params: ['path:hash'],
    response: 'MicroBlock',
  },
  {
    path: '/micro-blocks/{hash}/transactions',
    operationId: 'GetMicroBlockTransactions',
    summary: 'The transactions of a micro block',
    params: ['path:hash', ...PAGED],
    response: 'Page<Transaction>',
  },
  {
    path: '/transactions',
    operationId: 'GetTransactions',
    summary: 'Transactions matching every filter given',
    params: [...SCOPED, ...TX_FILTERS],
    response: 'Page<Transaction>',
  },
  {
    path: '/transactions/count',
    operationId: 'GetTransactionsCount',
    summary: 'How many transactions match',
    params: ['scope', 'query:tx_type', 'query:id', ...TX_FILTERS],
    response: 'integer',
  },
  {
    path: '/transactions/pending',
    operationId: 'GetPendingTransactions',
    summary: "The node's pending transactions",
    params: PAGED,
    response: 'Page<PendingTransaction>',
  },
  {
    path: '/transactions/pending/count',
    operationId: 'GetPendingTransactionsCount',
    summary: 'How many transactions are pending',
    params: [],
    response: 'integer',
  },
  {
    path: '/transactions/{hash}',
    operationId: 'GetTransaction',
    summary: 'A transaction',
    params: ['path:hash'],
    response: 'Transaction',
  },
  {
    path: '/accounts/{id}/transactions/count',
    operationId: 'GetAccountTransactionsCount',
    summary: "An id's transactions, counted per type and field",
    params: ['path:id'],
    response: 'AccountTransactionsCount',
  },
  {
    path: '/names',
    operationId: 'GetNames',
    summary: 'Names, by activation, deactivation or name',
    params: [...PAGED, 'query:by', 'query:state', 'query:owned_by', 'query:prefix'],
    response: 'Page<Name>',
  },
  {
    path: '/names/count',
    operationId: 'GetNamesCount',
    summary: 'Active names',
    params: ['query:owned_by'],
    response: 'integer',
  },
  {
    path: '/names/auctions',
    operationId: 'GetNamesAuctions',
    summary: 'Names in auction',
    params: PAGED,
    response: 'Page<Auction>',
  },
  {
    path: '/names/auctions/{id}',
    operationId: 'GetNameAuction',
    summary: 'A name in auction',
    params: ['path:id'],
    response: 'Auction',
  },
  {
    path: '/names/auctions/{id}/claims',
    operationId: 'GetNameAuctionClaims',
    summary: 'Claims and bids of a name',
    params: ['path:id', ...PAGED],
    response: 'Page<NameEvent>',
  },
  {
    path: '/names/{id}',
    operationId: 'GetName',
    summary: 'A name by name or nm_ hash',
    params: ['path:id'],
    response: 'Name',
  },
  {
    path: '/names/{id}/claims',
    operationId: 'GetNameClaims',
    summary: 'Claims and bids of a name',
    params: ['path:id', ...PAGED],
    response: 'Page<NameEvent>',
  },
  {
    path: '/names/{id}/transfers',
    operationId: 'GetNameTransfers',
    summary: 'Transfers of a name',
    params: ['path:id', ...PAGED],
    response: 'Page<NameEvent>',
  },
  {
    path: '/names/{id}/updates',
    operationId: 'GetNameUpdates',
    summary: 'Updates of a name',
    params: ['path:id', ...PAGED],
    response: 'Page<NameEvent>',
  },
  {
    path: '/accounts/{id}/names/claims',
    operationId: 'GetAccountNameClaims',
    summary: 'Name claims made by an account',
    params: ['path:id', ...PAGED],
    response: 'Page<NameEvent>',
  },
  {
    path: '/accounts/{id}/names/pointees',
    operationId: 'GetAccountPointees',
    summary: 'Names pointing at an id',
    params: ['path:id', ...PAGED],
    response: 'Page<Pointee>',
  },
  {
    path: '/oracles',
    operationId: 'GetOracles',
    summary: 'Oracles by expiry',
    params: [...SCOPED, 'query:state'],
    response: 'Page<Oracle>',
  },
  { path: '/oracles/{id}', operationId: 'GetOracle', summary: 'An oracle', params: ['path:id'], response: 'Oracle' },
  {
    path: '/oracles/{id}/queries',
    operationId: 'GetOracleQueries',
    summary: "An oracle's queries",
    params: ['path:id', ...PAGED],
    response: 'Page<OracleQuery>',
  },
  {
    path: '/oracles/{id}/responses',
    operationId: 'GetOracleResponses',
    summary: "An oracle's responses",
    params: ['path:id', ...PAGED],
    response: 'Page<OracleResponse>',
  },
  {
    path: '/oracles/{id}/extends',
    operationId: 'GetOracleExtends',
    summary: "An oracle's extensions",
    params: ['path:id', ...PAGED],
    response: 'Page<OracleExtend>',
  },
  {
    path: '/channels',
    operationId: 'GetChannels',
    summary: 'Channels by latest update',
    params: [...PAGED, 'query:state'],
    response: 'Page<Channel>',
  },
  { path: '/channels/{id}', operationId: 'GetChannel', summary: 'A channel', params: ['path:id'], response: 'Channel' },
  {
    path: '/contracts/calls',
    operationId: 'GetContractCalls',
    summary: 'Contract calls the chain holds as transactions (not internal calls), decoded',
    params: [...SCOPED, 'query:contract_id', 'query:contract', 'query:caller_id', 'query:function'],
    response: 'Page<ContractCall>',
  },
  {
    path: '/contracts/logs',
    operationId: 'GetContractLogs',
    summary: 'Event logs of contract calls',
    params: [...SCOPED, 'query:contract_id', 'query:event'],
    response: 'Page<ContractLog>',
  },
  {
    path: '/contracts/{id}',
    operationId: 'GetContract',
    summary: 'A contract and its creation',
    params: ['path:id'],
    response: 'Contract',
  },
  {
    path: '/transfers',
    operationId: 'GetTransfers',
    summary: 'Internal transfers',
    params: [...SCOPED, 'query:kind', 'query:account'],
    response: 'Page<Transfer>',
  },
  {
    path: '/accounts/{id}/activities',
    operationId: 'GetAccountActivities',
    summary:
      "An id's activities: transactions, internal transfers, token transfers, swaps, a name's claims, calls reaching a contract",
    params: ['path:id', ...SCOPED, 'query:type', 'query:owned_only'],
    response: 'Page<Activity>',
  },
  // the DEX (dex.ts)
  { path: '/dex/swaps', operationId: 'GetDexSwaps', summary: 'DEX swaps', params: PAGED, response: 'Page<DexSwap>' },
  {
    path: '/dex/{contractId}/swaps',
    operationId: 'GetDexSwapsByContractId',
    summary: 'DEX swaps of a pair, or of the pairs of a token',
    params: ['path:contractId', ...PAGED],
    response: 'Page<DexSwap>',
  },
  {
    path: '/accounts/{accountId}/dex/swaps',
    operationId: 'GetAccountDexSwaps',
    summary: "An account's DEX swaps",
    params: ['path:accountId', ...PAGED],
    response: 'Page<DexSwap>',
  },
  // AEX-9 tokens (aex9.ts)
  {
    path: '/aex9',
    operationId: 'GetSortedAex9Tokens',
    summary: 'AEX-9 tokens by name, symbol or creation',
    params: [...PAGED, 'query:by', 'query:prefix', 'query:exact'],
    response: 'Page<Aex9Response>',
  },
  {
    path: '/aex9/count',
    operationId: 'GetAex9TokensCount',
    summary: 'The number of AEX-9 tokens',
    params: [],
    response: 'Aex9Count',
  },
  {
    path: '/aex9/{id}',
    operationId: 'GetAex9ByContract',
    summary: 'An AEX-9 token',
    params: ['path:id'],
    response: 'Aex9Response',
  },
  {
    path: '/aex9/{contractId}/balances',
    operationId: 'GetAex9ContractBalances',
    summary: "A token's holders, now or at a block",
    params: ['path:contractId', ...PAGED, 'query:by', 'query:block_hash', 'query:height'],
    response: 'Page<Aex9ContractBalanceResponse>',
  },
  {
    path: '/aex9/{contractId}/balances/{accountId}',
    operationId: 'GetAex9ContractAccountBalance',
    summary: "An account's balance of a token, now, at a block hash or at a height",
    params: ['path:contractId', 'path:accountId', 'query:hash', 'query:height'],
    response: 'Aex9AccountBalance',
  },
  {
    path: '/aex9/{contractId}/balances/{accountId}/history',
    operationId: 'GetAex9ContractAccountBalanceHistory',
    summary: "An account's balance of a token at each generation",
    params: ['path:contractId', 'path:accountId', ...SCOPED],
    response: 'Page<Aex9BalanceHistoryItem>',
  },
  {
    path: '/accounts/{accountId}/aex9/balances',
    operationId: 'GetAex9AccountBalances',
    summary: "An account's AEX-9 balances",
    params: ['path:accountId', ...PAGED],
    response: 'Page<Aex9BalanceResponse>',
  },
  {
    path: '/aex9/{contractId}/transfers',
    operationId: 'GetAex9ContractTransfers',
    summary: "A token's transfers from, to or of an account",
    params: ['path:contractId', ...PAGED, 'query:sender', 'query:recipient', 'query:account'],
    response: 'Page<Aex9Transfer>',
  },
  // AEX-141 (aex141.ts)
  {
    path: '/aex141',
    operationId: 'GetSortedAex141Contracts',
    summary: 'NFT collections by creation, name or symbol',
    params: [...PAGED, 'query:by', 'query:prefix', 'query:exact'],
    response: 'Page<Aex141Response>',
  },
  {
    path: '/aex141/count',
    operationId: 'GetAex141Count',
    summary: 'The number of NFT collections (ae_mdw router only: not in its spec)',
    params: [],
    response: 'Aex141Count',
  },
  {
    path: '/aex141/transfers',
    operationId: 'GetAex141Transfers',
    summary: 'NFT transfers of every collection, optionally from and/or to an account (ae_mdw router only)',
    params: [...PAGED, 'query:from', 'query:to'],
    response: 'Page<Aex141TransferEvent>',
  },
  {
    path: '/aex141/{id}',
    operationId: 'GetAex141ByContract',
    summary: 'An NFT collection',
    params: ['path:id'],
    response: 'Aex141Response',
  },
  {
    path: '/aex141/{contractId}/tokens',
    operationId: 'GetAex141ContractTokens',
    summary: "A collection's tokens and their owners",
    params: ['path:contractId', ...PAGED],
    response: 'Page<Aex141TokenResponse>',
  },
  {
    path: '/aex141/{contractId}/tokens/{tokenId}',
    operationId: 'GetAex141TokenOwner',
    summary: "A token's owner",
    params: ['path:contractId', 'path:tokenId'],
    response: 'Aex141TokenDetailResponse',
  },
  {
    path: '/aex141/{contractId}/templates',
    operationId: 'GetAex141ContractTemplates',
    summary: "A collection's templates",
    params: ['path:contractId', ...PAGED],
    response: 'Page<Aex141TemplatesResponse>',
  },
  {
    path: '/aex141/{contractId}/templates/{templateId}/tokens',
    operationId: 'GetAex141TemplateTokens',
    summary: 'The tokens minted from a template',
    params: ['path:contractId', 'path:templateId', ...PAGED],
    response: 'Page<Aex141TemplateTokensResponse>',
  },
  {
    path: '/aex141/{contractId}/transfers',
    operationId: 'GetAex141ContractTransfers',
    summary: "A collection's transfers, optionally from and/or to an account",
    params: ['path:contractId', ...PAGED, 'query:from', 'query:to'],
    response: 'Page<Aex141TransferEvent>',
  },
  {
    path: '/accounts/{accountId}/aex141/tokens',
    operationId: 'GetAex141OwnedTokens',
    summary: "An account's NFTs, optionally of one collection",
    params: ['path:accountId', ...PAGED, 'query:contract'],
    response: 'Page<Aex141TokenResponse>',
  },
  ...STATS_OPERATIONS,
];

const int = { type: 'integer' } as const;
const str = { type: 'string' } as const;
const bool = { type: 'boolean' } as const;
/** Integers that may exceed 2^53 are bare JSON integers (or strings with int-as-string). */
const big = { oneOf: [int, { type: 'string', pattern: '^-?[0-9]+$' }] } as const;
/** A big integer or null (an account that never held a token). */
const bigOrNull = {
  oneOf: [
    { type: 'integer', nullable: true },
    { type: 'string', pattern: '^-?[0-9]+$' },
  ],
} as const;
const ak = { type: 'string', pattern: '^ak_' } as const;
const ct = { type: 'string', pattern: '^ct_' } as const;
const th = { type: 'string', pattern: '^th_' } as const;

function object(required: Record<string, unknown>, extra = true): Record<string, unknown> {
  return { type: 'object', required: Object.keys(required), properties: required, additionalProperties: extra };
}

/** SCHEMAS: the answers' shapes (the fields we guarantee; more may follow). */
export const V3_SCHEMAS: Record<string, unknown> = {
  Error: object({ error: str }, false),
  Status: object({
    mdw_gens_per_minute: { type: 'number' },
    mdw_height: int,
    mdw_last_migration: int,
    mdw_revision: str,
    mdw_synced: bool,
    mdw_syncing: bool,
    mdw_tx_index: int,
    mdw_version: str,
    node_height: int,
    node_progress: { type: 'number' },
    node_revision: str,
    node_syncing: bool,
    node_version: str,
  }),
  OpenApi: object({ openapi: str, paths: { type: 'object' } }),
  KeyBlock: object({
    hash: { type: 'string', pattern: '^kh_' },
    height: int,
    prev_hash: str,
    prev_key_hash: str,
    miner: str,
    beneficiary: str,
    time: int,
    micro_blocks_count: int,
    transactions_count: int,
    beneficiary_reward: big,
  }),
  MicroBlock: object({
    hash: { type: 'string', pattern: '^mh_' },
    height: int,
    prev_hash: str,
    prev_key_hash: str,
    time: int,
    micro_block_index: int,
    transactions_count: int,
    gas: big,
  }),
  Transaction: object({
    block_hash: { type: 'string', pattern: '^mh_' },
    block_height: int,
    encoded_tx: { type: 'string', nullable: true },
    hash: { type: 'string', pattern: '^th_' },
    micro_index: int,
    micro_time: int,
    signatures: { type: 'array', items: str },
    tx: object({ type: str }),
  }),
  PendingTransaction: object({ hash: str, tx: { type: 'object' }, failures: int }),
  AccountTransactionsCount: object({ total: int }),
  Transfer: object({
    account_id: str,
    amount: big,
    height: int,
    kind: str,
    ref_block_hash: { type: 'string', nullable: true },
    ref_tx_hash: { type: 'string', nullable: true },
    ref_tx_type: { type: 'string', nullable: true },
  }),
  Activity: object({ block_hash: str, block_time: int, height: int, type: str, payload: { type: 'object' } }),
  Oracle: object({
    oracle: { type: 'string', pattern: '^ok_' },
    active: bool,
    active_from: int,
    expire_height: int,
    approximate_expire_time: int,
    register_time: int,
    register_tx_hash: str,
    format: object({ query: { type: 'string', nullable: true }, response: { type: 'string', nullable: true } }),
    query_fee: { type: 'integer', nullable: true },
    register: { type: 'object', nullable: true },
  }),
  OracleQuery: object({
    query_id: str,
    oracle_id: str,
    sender_id: str,
    height: int,
    block_hash: str,
    source_tx_hash: str,
    query: str,
  }),
  OracleResponse: object({
    query_id: str,
    oracle_id: str,
    height: int,
    block_hash: str,
    source_tx_hash: str,
    response: str,
  }),
  OracleExtend: object({
    height: int,
    block_hash: str,
    source_tx_hash: str,
    source_tx_type: str,
    tx: { type: 'object' },
  }),
  Channel: object({
    channel: { type: 'string', pattern: '^ch_' },
    active: bool,
    amount: big,
    channel_reserve: big,
    initiator: str,
    responder: str,
    last_updated_height: int,
    last_updated_tx_hash: str,
    last_updated_tx_type: str,
    updates_count: int,
  }),
  Contract: object({
    contract: { type: 'string', pattern: '^ct_' },
    block_hash: str,
    source_tx_hash: str,
    source_tx_type: str,
    create_tx: { type: 'object' },
  }),
  ContractCall: object({
    block_hash: { type: 'string', pattern: '^mh_' },
    call_tx_hash: { type: 'string', pattern: '^th_' },
    contract_id: { type: 'string', pattern: '^ct_' },
    contract_tx_hash: { type: 'string', nullable: true },
    function: { type: 'string', nullable: true },
    height: int,
    internal_tx: object({ type: str, arguments: { type: 'array' } }),
    local_idx: int,
    micro_index: int,
  }),
  ContractLog: object({
    contract_id: str,
    call_tx_hash: str,
    args: { type: 'array', items: str },
    data: str,
    event_hash: { type: 'string', nullable: true },
    height: int,
    micro_index: int,
    block_hash: str,
    log_idx: int,
  }),
  Name: object({
    active: bool,
    hash: { type: 'string', pattern: '^nm_' },
    name: str,
    active_from: int,
    approximate_activation_time: int,
    approximate_expire_time: { type: 'integer', nullable: true },
    expire_height: { type: 'integer', nullable: true },
    pointers: { type: 'array' },
    auction: { type: 'object', nullable: true },
    auction_timeout: int,
    ownership: object({ current: str, original: str }),
    name_fee: { type: 'integer', nullable: true },
    revoke: { type: 'object', nullable: true },
    claims_count: int,
  }),
  Auction: object({
    name: str,
    activation_time: int,
    auction_end: int,
    approximate_expire_time: int,
    name_fee: { type: 'integer', nullable: true },
    claims_count: int,
    last_bid: { type: 'object', nullable: true },
  }),
  NameEvent: object({
    active_from: int,
    block_hash: str,
    height: int,
    source_tx_hash: str,
    source_tx_type: str,
    internal_source: bool,
    tx: { type: 'object' },
  }),
  Pointee: object({
    active: bool,
    name: str,
    key: str,
    block_hash: str,
    block_height: int,
    block_time: int,
    source_tx_hash: str,
    source_tx_type: str,
    tx: { type: 'object' },
  }),
  DexSwap: object({
    caller: { type: 'string', pattern: '^ak_' },
    to_account: { type: 'string', pattern: '^ak_' },
    from_token: { type: 'string', nullable: true },
    to_token: { type: 'string', nullable: true },
    from_contract: { type: 'string', pattern: '^ct_' },
    to_contract: { type: 'string', pattern: '^ct_' },
    from_amount: big,
    to_amount: big,
    from_decimals: { type: 'integer', nullable: true },
    to_decimals: { type: 'integer', nullable: true },
    amounts: object({ amount0_in: big, amount1_in: big, amount0_out: big, amount1_out: big }),
    action: { type: 'string', enum: ['BUY', 'SELL', 'SWAP'] },
    tx_hash: { type: 'string', pattern: '^th_' },
    log_idx: int,
    micro_time: int,
    height: int,
  }),
  Aex9Count: object({ data: int }, false),
  Aex9Response: object({
    name: str,
    symbol: str,
    decimals: { type: 'integer', nullable: true },
    contract_id: ct,
    contract_tx_hash: th,
    extensions: { type: 'array', items: str },
    initial_supply: big,
    event_supply: big,
    holders: int,
    logs_count: int,
    invalid: bool,
  }),
  Aex9ContractBalanceResponse: object({
    contract_id: ct,
    account_id: ak,
    block_hash: { type: 'string', pattern: '^mh_' },
    height: int,
    last_tx_hash: th,
    last_log_idx: int,
    amount: big,
  }),
  Aex9AccountBalance: object({ account: ak, amount: bigOrNull, contract: ct }),
  Aex9BalanceHistoryItem: object({ account: ak, amount: bigOrNull, contract: ct, height: int }),
  Aex9BalanceResponse: object({
    contract_id: ct,
    block_hash: { type: 'string', pattern: '^mh_' },
    tx_hash: th,
    tx_index: { type: 'integer', nullable: true },
    tx_type: str,
    height: int,
    amount: big,
    decimals: { type: 'integer', nullable: true },
    token_symbol: str,
    token_name: str,
  }),
  Aex9Transfer: object({
    sender: ak,
    recipient: ak,
    amount: big,
    contract_id: ct,
    log_idx: int,
    block_height: int,
    micro_index: int,
    micro_time: int,
    tx_hash: th,
  }),
  Aex141Response: object({
    contract_id: { type: 'string', pattern: '^ct_' },
    contract_tx_hash: { type: 'string', pattern: '^th_' },
    name: { type: 'string', nullable: true },
    symbol: { type: 'string', nullable: true },
    base_url: { type: 'string', nullable: true },
    metadata_type: { type: 'string', nullable: true },
    extensions: { type: 'array', items: str },
    limits: { type: 'object', nullable: true },
    nft_owners: int,
    nfts_amount: int,
    invalid: bool,
    creation_time: int,
    block_height: int,
    incomplete: bool,
  }),
  Aex141Count: object({ data: int }),
  Aex141TokenResponse: object({ contract_id: { type: 'string', pattern: '^ct_' }, owner_id: str, token_id: big }),
  Aex141TokenDetailResponse: object({
    contract_id: { type: 'string', pattern: '^ct_' },
    owner_id: str,
    token_id: big,
    metadata: { type: 'object', nullable: true },
  }),
  Aex141TemplatesResponse: object({
    contract_id: { type: 'string', pattern: '^ct_' },
    template_id: big,
    tx_hash: { type: 'string', pattern: '^th_' },
    log_idx: int,
    edition: { type: 'object', nullable: true },
  }),
  Aex141TemplateTokensResponse: object({
    owner_id: str,
    token_id: big,
    tx_hash: { type: 'string', pattern: '^th_' },
    log_idx: int,
    edition: { type: 'string', nullable: true },
  }),
  Aex141TransferEvent: object({
    sender: str,
    recipient: str,
    token_id: big,
    contract_id: { type: 'string', pattern: '^ct_' },
    log_idx: int,
    block_height: int,
    micro_index: int,
    micro_time: int,
    tx_hash: { type: 'string', pattern: '^th_' },
  }),
  ...STATS_SCHEMAS,
};

/** v3ApiDocument is the document served at /v3/api. */
export function v3ApiDocument(revision: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of V3_OPERATIONS) {
    paths[op.path] = {
      get: {
        operationId: op.operationId,
        summary: op.summary,
        parameters: op.params.map(parameter),
        responses: {
          '200': { description: 'OK', content: { 'application/json': { schema: responseSchema(op.response) } } },
          '400': { description: 'Bad input', content: { 'application/json': { schema: ref('Error') } } },
          ...(op.params.some((p) => p.startsWith('path:'))
            ? { '404': { description: 'Not found', content: { 'application/json': { schema: ref('Error') } } } }
            : {}),
        },
      },
    };
  }
  return {
    openapi: '3.0.3',
    info: {
      title: 'æternity middleware, ae_mdw /v3 compatible',
      version: MDW_COMPAT_VERSION,
      description: `ae_mdw ${MDW_COMPAT_VERSION}'s /v3 as served by this middleware (build ${revision}).`,
    },
    servers: [{ url: '/v3' }],
    paths,
    components: { schemas: V3_SCHEMAS },
  };
}

/** responseSchema is the JSON schema of an answer, page envelopes written out. */
export function responseSchema(response: string): Record<string, unknown> {
  if (response === 'integer') return { type: 'integer' };
  const page = /^Page<(\w+)>$/.exec(response);
  if (!page) return ref(response);
  const link = { type: 'string', nullable: true };
  return {
    type: 'object',
    required: ['data', 'next', 'prev'],
    properties: { data: { type: 'array', items: ref(page[1]!) }, next: link, prev: link },
  };
}

function ref(name: string): Record<string, unknown> {
  return { $ref: `#/components/schemas/${name}` };
}

function parameter(p: ParamName): Record<string, unknown> {
  if (p.startsWith('path:')) return { name: p.slice(5), in: 'path', required: true, schema: str };
  if (p.startsWith('query:')) return { name: p.slice(6), in: 'query', required: false, schema: str };
  const schemas: Record<string, Record<string, unknown>> = {
    limit: { type: 'integer', minimum: 1, maximum: LIMITS.max, default: LIMITS.default },
    cursor: str,
    direction: { type: 'string', enum: ['forward', 'backward'], default: 'backward' },
    rev: { type: 'string', enum: ['1'] },
    scope: { type: 'string', pattern: '^(gen|time):\\d+(-\\d+)?$' },
  };
  if (p === 'statsLimit')
    return { name: 'limit', in: 'query', required: false, schema: { ...schemas.limit, maximum: 1000 } };
  return { name: p, in: 'query', required: false, schema: schemas[p] };
}
