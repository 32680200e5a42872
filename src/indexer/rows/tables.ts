/**
 * @module The table layout the writer fills: for each table, its columns, their PostgreSQL types
 * and how each value is read from a row. One list serves the batched INSERTs and the COPY baseline.
 */
import { stringifyJson } from '../../chain/json.ts';
import { storedCallInfo, type StoredCallInfo } from './call-info-trim.ts';
import { storedMicroHeader } from './micro-header-trim.ts';
import type {
  AccountPairRow,
  AccountTxRow,
  ChannelEventRow,
  ContractCallRow,
  ContractRow,
  KeyBlockRow,
  MicroBlockRow,
  NameEventRow,
  NamePointerRow,
  OracleEventRow,
  OracleQueryRow,
  OracleResponseRow,
  RemoteCallRow,
  ResolvedRows,
  TransactionRow,
} from './rows.ts';
import { remoteCalls } from './remote-calls.ts';

/**
 * IdNumbers gives the number that stands for an id in account_transactions (db/queries/account-ids.ts) and the code
 * that stands for a transaction type (db/writes/tx-type-codes.ts).
 */
export interface IdNumbers {
  number(id: string): number;
  typeCode(type: string): number;
}

/** Column: name, PostgreSQL type, and the value of a row (null for SQL NULL), which may name an id by its number. */
export type Column<R> = readonly [
  name: string,
  pgType: string,
  value: (row: R, numbers: IdNumbers) => string | number | boolean | null,
];

/** TableColumns names a table and how each of its columns is read from a row. */
export interface TableColumns<R> {
  readonly table: string;
  readonly columns: readonly Column<R>[];
}

/** TableSpec ties a table to the rows it takes from a batch. */
export interface TableSpec<R> extends TableColumns<R> {
  readonly rows: (batch: ResolvedRows) => readonly R[];
  /**
   * Keyed by a derived id, where the chain may repeat a key (a GA inner ContractCreateTx has
   * nonce 0): the first row stays, and a strange tx never blocks the sync.
   */
  readonly firstWins?: boolean;
  /**
   * Rows that need the stored state before the batch (name and oracle events, the ids' numbers): made inside the
   * transaction.
   */
  readonly needsState?: boolean;
}

// the stored call info of a row, made once for its two columns
const storedInfos = new WeakMap<ContractCallRow, StoredCallInfo>();
const storedInfo = (r: ContractCallRow): StoredCallInfo | null => {
  if (r.callInfo === null) return null;
  let stored = storedInfos.get(r);
  if (stored === undefined) storedInfos.set(r, (stored = storedCallInfo(r.callInfo, r.callInfoText, r)));
  return stored;
};

/** byteaHex is a bytea value for COPY's text format (`\x…`; copyText escapes the backslash). */
const byteaHex = (bytes: Uint8Array): string =>
  `\\x${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('hex')}`;
const json = (v: unknown): string | null => (v === null || v === undefined ? null : stringifyJson(v));
const pos = <R extends { height: number; microIndex: number; txIndex: number }>(): Column<R>[] => [
  ['height', 'int', (r) => r.height],
  ['micro_index', 'int', (r) => r.microIndex],
  ['tx_index', 'int', (r) => r.txIndex],
];

function spec<R>(
  table: string,
  rows: (b: ResolvedRows) => readonly R[],
  columns: Column<R>[],
  kind?: 'firstWins' | 'needsState',
): TableSpec<R> {
  return { table, rows, columns, firstWins: kind === 'firstWins', needsState: kind === 'needsState' };
}

// ids as numbers, types as codes, fields space-separated (migration 1000)
const accountTxColumns: Column<AccountTxRow>[] = [
  ['account', 'int', (r, numbers) => numbers.number(r.account)],
  ...pos<AccountTxRow>(),
  ['tx_type', 'smallint', (r, numbers) => numbers.typeCode(r.txType)],
  ['fields', 'text', (r) => r.fields.join(' ')],
];

/** TABLES in insertion order: key blocks first, then the rows that belong to their heights. */
export const TABLES: readonly TableSpec<unknown>[] = [
  spec<KeyBlockRow>('key_blocks', (b) => b.keyBlocks, [
    ['height', 'int', (r) => r.height],
    ['hash', 'text', (r) => r.hash],
    ['prev_hash', 'text', (r) => r.prevHash],
    ['prev_key_hash', 'text', (r) => r.prevKeyHash],
    ['beneficiary', 'text', (r) => r.beneficiary],
    ['miner', 'text', (r) => r.miner],
    ['time_ms', 'bigint', (r) => r.timeMs.toString()],
    ['data', 'jsonb', (r) => json(r.data)],
  ]),
  spec<MicroBlockRow>('micro_blocks', (b) => b.microBlocks, [
    ['hash', 'text', (r) => r.hash],
    ['height', 'int', (r) => r.height],
    ['micro_index', 'int', (r) => r.microIndex],
    ['time_ms', 'bigint', (r) => r.timeMs.toString()],
    ['tx_count', 'int', (r) => r.txCount],
    // without hash, height and time: the columns above (migration 1000)
    ['header', 'jsonb', (r) => json(storedMicroHeader(r))],
  ]),
  spec<TransactionRow>('transactions', (b) => b.transactions, [
    ['hash', 'text', (r) => r.txHash],
    ...pos<TransactionRow>(),
    ['micro_time_ms', 'bigint', (r) => r.microTimeMs.toString()],
    ['tx_type', 'smallint', (r, numbers) => numbers.typeCode(r.txType)],
    ['fee', 'numeric', (r) => r.fee],
    ['size', 'int', (r) => r.stored.size],
    ['signed', 'bytea', (r) => byteaHex(r.stored.signed)],
    ['gas', 'numeric', (r) => r.stored.gas],
    ['inner_type', 'text', (r) => r.stored.innerType],
    ['channel_amount', 'numeric', (r) => r.stored.channelAmount],
    ['created_id', 'text', (r) => r.createdId],
  ]),
  spec<AccountTxRow>('account_transactions', (b) => b.accountTxs, accountTxColumns, 'needsState'),
  spec<ContractRow>(
    'contracts',
    (b) => b.contracts,
    [
      ['contract_id', 'text', (r) => r.contractId],
      ['height', 'int', (r) => r.height],
      ['create_tx_hash', 'text', (r) => r.createTxHash],
      ['owner_id', 'text', (r) => r.ownerId],
      ['vm_version', 'text', (r) => r.vmVersion],
      ['abi_version', 'text', (r) => r.abiVersion],
    ],
    'firstWins',
  ),
  // the accounts reached through names; a tx that also names the account itself keeps that row
  spec<AccountTxRow>('account_transactions', (b) => b.nameAccountTxs, accountTxColumns, 'firstWins'),
  // the senders and recipients of the account rows above (migration 1077)
  spec<AccountPairRow>(
    'account_pairs',
    (b) => b.accountPairs,
    [
      ['sender', 'int', (r, numbers) => numbers.number(r.sender)],
      ['recipient', 'int', (r, numbers) => numbers.number(r.recipient)],
      ...pos<AccountPairRow>(),
    ],
    'needsState',
  ),
  spec<ContractCallRow>('contract_calls', (b) => b.contractCalls, [
    ['tx_hash', 'text', (r) => r.txHash],
    ...pos<ContractCallRow>(),
    ['contract_id', 'text', (r) => r.contractId],
    ['caller_id', 'text', (r) => r.callerId],
    ['function', 'text', (r) => r.function],
    ['arguments', 'jsonb', (r) => json(r.arguments)],
    // without the members the row's columns hold (migration 1000)
    ['call_info', 'jsonb', (r) => storedInfo(r)?.text ?? null],
    ['call_info_trimmed', 'boolean', (r) => storedInfo(r)?.trimmed ?? false],
    ['call_info_pruned', 'boolean', (r) => r.callInfoPruned],
    ['result', 'jsonb', (r) => json(r.result)],
    ['decode_error', 'text', (r) => r.decodeError],
  ]),
  // the contracts the calls reached through another (migration 1154: a trigger on contract_calls derived them from
  // every call's row, copied into its transition table); a position may repeat an emitter (two calls at one position)
  spec<RemoteCallRow>(
    'contract_remote_calls',
    (b) => remoteCalls(b.contractCalls),
    [['contract_id', 'text', (r) => r.contractId], ...pos<RemoteCallRow>()],
    'firstWins',
  ),
  // the state after each transaction is known once the stored state before the batch is (migration 1051)
  spec<ChannelEventRow>(
    'channel_events',
    (b) => b.channelEvents,
    [
      ['channel_id', 'text', (r) => r.channelId],
      ...pos<ChannelEventRow>(),
      ['tx_hash', 'text', (r) => r.txHash],
      ['tx_type', 'text', (r) => r.txType],
      ['closes', 'boolean', (r) => r.closes],
      ['amount', 'numeric', (r) => r.amount],
      ['round', 'numeric', (r) => r.state?.round.toString() ?? null],
      ['solo_round', 'numeric', (r) => r.state?.soloRound.toString() ?? null],
      ['state_hash', 'text', (r) => r.state?.stateHash ?? null],
      ['gas_used', 'numeric', (r) => r.gasUsed],
      ['initiator_amount', 'numeric', (r) => r.state?.initiatorAmount.toString() ?? null],
      ['responder_amount', 'numeric', (r) => r.state?.responderAmount.toString() ?? null],
    ],
    'needsState',
  ),
  spec<NameEventRow>(
    'name_events',
    (b) => b.nameEvents,
    [
      ['name_hash', 'text', (r) => r.nameHash],
      ['name', 'text', (r) => r.name],
      ...pos<NameEventRow>(),
      ['tx_hash', 'text', (r) => r.txHash],
      ['kind', 'text', (r) => r.kind],
      ['owner', 'text', (r) => r.owner],
      ['expires_at', 'int', (r) => r.expiresAt],
      ['auction_end', 'int', (r) => r.auctionEnd],
      ['name_fee', 'numeric', (r) => r.nameFee],
      ['pointers', 'jsonb', (r) => json(r.pointers)],
    ],
    'needsState',
  ),
  spec<NamePointerRow>('name_pointers', (b) => b.namePointers, [
    ['name_hash', 'text', (r) => r.nameHash],
    ...pos<NamePointerRow>(),
    ['key', 'text', (r) => r.key],
    ['id', 'text', (r) => r.id],
  ]),
  spec<OracleEventRow>(
    'oracle_events',
    (b) => b.oracleEvents,
    [
      ['oracle_id', 'text', (r) => r.oracleId],
      ...pos<OracleEventRow>(),
      ['tx_hash', 'text', (r) => r.txHash],
      ['kind', 'text', (r) => r.kind],
      ['expires_at', 'int', (r) => r.expiresAt],
      ['query_fee', 'numeric', (r) => r.queryFee],
      ['query_format', 'text', (r) => r.queryFormat],
      ['response_format', 'text', (r) => r.responseFormat],
      ['abi_version', 'text', (r) => r.abiVersion],
    ],
    'needsState',
  ),
  spec<OracleQueryRow>(
    'oracle_queries',
    (b) => b.oracleQueries,
    [
      ['query_id', 'text', (r) => r.queryId],
      ['oracle_id', 'text', (r) => r.oracleId],
      ...pos<OracleQueryRow>(),
      ['tx_hash', 'text', (r) => r.txHash],
      ['sender_id', 'text', (r) => r.senderId],
      ['sender_nonce', 'numeric', (r) => r.senderNonce],
      ['query', 'text', (r) => r.query],
      ['fee', 'numeric', (r) => r.fee],
      ['expires_at', 'int', (r) => r.expiresAt],
      ['response_ttl', 'jsonb', (r) => json(r.responseTtl)],
    ],
    'firstWins',
  ),
  spec<OracleResponseRow>(
    'oracle_responses',
    (b) => b.oracleResponses,
    [
      ['query_id', 'text', (r) => r.queryId],
      ...pos<OracleResponseRow>(),
      ['tx_hash', 'text', (r) => r.txHash],
      ['response', 'text', (r) => r.response],
    ],
    'firstWins',
  ),
] as unknown as readonly TableSpec<unknown>[];
