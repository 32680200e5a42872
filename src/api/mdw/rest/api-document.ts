/** @module The OpenAPI 3 document of our /v3 (served at /v3/api), with response schemas, built from one table. Pure. */
import type { ParamName, V3Operation } from './operation.ts';
import { LIMITS } from '../resources/mdw-params.ts';
import { MDW_COMPAT_VERSION } from '../resources/status-source.ts';
import { STATS_SCHEMAS } from './stats-document.ts';
import { HYPERCHAIN_SCHEMAS } from './hyperchain-document.ts';
import { PROTOCOL_REPORT_SCHEMA } from '../../http/sync-report.ts';
import { EPOCH_REPORT_SCHEMA } from '../../http/current-epoch.ts';

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

function object(
  required: Record<string, unknown>,
  extra = true,
  optional: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    type: 'object',
    required: Object.keys(required),
    properties: { ...required, ...optional },
    additionalProperties: extra,
  };
}

/** SCHEMAS: the answers' shapes (the fields we guarantee; more may follow). */
export const V3_SCHEMAS: Record<string, unknown> = {
  Error: object({ error: str }, false),
  Status: object(
    {
      mdw_gens_per_minute: { type: 'number' },
      mdw_height: int,
      mdw_last_migration: int,
      mdw_protocol: { ...PROTOCOL_REPORT_SCHEMA, nullable: true },
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
      mdw_failed_areas: {
        type: 'array',
        items: object({ area: str, from: int, since: str, error: str }, false),
      },
    },
    true,
    // a hyperchain's only
    { mdw_epoch: EPOCH_REPORT_SCHEMA },
  ),
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
  /** a bare integer; `{"data": n}` for one micro block (`mb_hash`), as ae_mdw answers (its spec says integer only) */
  TransactionsCount: { oneOf: [int, object({ data: int }, false)] },
  /** per type and field; with `type` or `type_group` a bare number, as ae_mdw answers (its spec says object only) */
  AccountTransactionsCount: { oneOf: [object({ total: int }), int] },
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
  ChannelUpdate: object({
    channel: { type: 'string', pattern: '^ch_' },
    tx_type: str,
    block_hash: { type: 'string', pattern: '^mh_' },
    source_tx_hash: th,
    source_tx_type: str,
    tx: { type: 'object' },
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
    // topics as decimal strings; with aexn-args=true a standard event's as ids and integers
    args: { type: 'array', items: { oneOf: [str, int] } },
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
  /** ae_mdw's history items: a NameEvent, or a registration's expiry */
  NameHistoryItem: {
    oneOf: [{ $ref: '#/components/schemas/NameEvent' }, object({ active_from: int, expired_at: int })],
  },
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
  /** ae_mdw's /wealth: a plain array, the richest accounts first */
  Wealth: { type: 'array', items: object({ account: ak, balance: big }) },
  ...STATS_SCHEMAS,
  ...HYPERCHAIN_SCHEMAS,
};

/** v3ApiDocument is the document served at /v3/api: the operations of the route table (operations.ts). */
export function v3ApiDocument(operations: readonly V3Operation[], revision: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of operations) {
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
    scope: { type: 'string', pattern: '^((gen|time|txi|epoch):\\d+(-\\d+)?|transaction:th_\\w+(-th_\\w+)?)$' },
  };
  if (p === 'statsLimit')
    return { name: 'limit', in: 'query', required: false, schema: { ...schemas.limit, maximum: 1000 } };
  return { name: p, in: 'query', required: false, schema: schemas[p] };
}
