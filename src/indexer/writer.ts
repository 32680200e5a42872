/**
 * @module Writer: the rows of whole heights in one database transaction, as multi-row INSERTs
 * over unnest()ed arrays (one statement per table per batch), and the sync state beside them.
 */
import { stringifyJson } from '../chain/json.ts';
import { quoteIdent, type Queryable } from '../db/pool.ts';
import { foldNameActions, foldOracleActions, type NameState, type OracleState } from './chain-state.ts';
import type { GenerationRows } from './rows.ts';

type Column = readonly [name: string, pgType: string];

/** insertMany inserts column-wise arrays with one statement; table and column names are constants of this module. */
async function insertMany(db: Queryable, table: string, columns: readonly Column[], values: unknown[][]): Promise<void> {
  if (values[0]!.length === 0) return;
  const names = columns.map(([n]) => quoteIdent(n)).join(', ');
  const sources = columns.map(([, t], i) => (t === 'text[]' ? `string_to_array(c${i}, ' ')` : `c${i}`)).join(', ');
  const unnest = columns.map(([, t], i) => `$${i + 1}::${t === 'text[]' ? 'text' : t}[]`).join(', ');
  const aliases = columns.map((_, i) => `c${i}`).join(', ');
  await db.query(`INSERT INTO ${quoteIdent(table)} (${names}) SELECT ${sources} FROM unnest(${unnest}) AS u(${aliases})`, values);
}

const json = (v: unknown): string | null => (v === null || v === undefined ? null : stringifyJson(v));
/** text[] values travel as space-joined text: signatures and field names never contain spaces. */
const words = (v: readonly string[] | null): string | null => (v === null ? null : v.join(' '));

/** deleteFrom removes every height ≥ `height` (the cascade removes everything that belongs to them). */
export async function deleteFrom(db: Queryable, height: number): Promise<number> {
  const { rowCount } = await db.query('DELETE FROM key_blocks WHERE height >= $1', [height]);
  return rowCount ?? 0;
}

/** deleteHeights removes exactly the listed heights. */
export async function deleteHeights(db: Queryable, heights: readonly number[]): Promise<number> {
  const { rowCount } = await db.query('DELETE FROM key_blocks WHERE height = ANY($1::int[])', [heights]);
  return rowCount ?? 0;
}

async function priorNameStates(db: Queryable, hashes: string[], before: number): Promise<Map<string, NameState>> {
  if (hashes.length === 0) return new Map();
  const { rows } = await db.query<{ name_hash: string; name: string | null; kind: string; owner: string; expires_at: number | null; auction_end: number | null; name_fee: string | null; pointers: NameState['pointers'] }>(
    `SELECT DISTINCT ON (name_hash) name_hash, name, kind, owner, expires_at, auction_end, name_fee, pointers
       FROM name_events WHERE name_hash = ANY($1::text[]) AND height < $2
      ORDER BY name_hash, height DESC, micro_index DESC, tx_index DESC`, [hashes, before]);
  return new Map(rows.map((r) => [r.name_hash, { name: r.name, kind: r.kind, owner: r.owner, expiresAt: r.expires_at, auctionEnd: r.auction_end, nameFee: r.name_fee, pointers: r.pointers }]));
}

async function priorOracleStates(db: Queryable, ids: string[], before: number): Promise<Map<string, OracleState>> {
  if (ids.length === 0) return new Map();
  const { rows } = await db.query<{ oracle_id: string; expires_at: number }>(
    `SELECT DISTINCT ON (oracle_id) oracle_id, expires_at FROM oracle_events
      WHERE oracle_id = ANY($1::text[]) AND height < $2 ORDER BY oracle_id, height DESC, micro_index DESC, tx_index DESC`, [ids, before]);
  return new Map(rows.map((r) => [r.oracle_id, { expiresAt: r.expires_at }]));
}

/** writeGenerations inserts the rows of several heights (ascending); the caller owns the transaction. Returns the tx count. */
export async function writeGenerations(db: Queryable, gens: readonly GenerationRows[]): Promise<number> {
  if (gens.length === 0) return 0;
  const all = <K extends keyof GenerationRows>(k: K): GenerationRows[K] extends (infer T)[] ? T[] : never =>
    gens.flatMap((g) => g[k] as unknown[]) as never;
  const kbs = gens.map((g) => g.keyBlock);
  await insertMany(db, 'key_blocks', [['height', 'int'], ['hash', 'text'], ['prev_hash', 'text'], ['prev_key_hash', 'text'], ['beneficiary', 'text'], ['miner', 'text'], ['time_ms', 'bigint'], ['data', 'jsonb']],
    [kbs.map((k) => k.height), kbs.map((k) => k.hash), kbs.map((k) => k.prevHash), kbs.map((k) => k.prevKeyHash), kbs.map((k) => k.beneficiary), kbs.map((k) => k.miner), kbs.map((k) => k.timeMs.toString()), kbs.map((k) => json(k.data))]);
  const mbs = all('microBlocks');
  await insertMany(db, 'micro_blocks', [['hash', 'text'], ['height', 'int'], ['micro_index', 'int'], ['time_ms', 'bigint'], ['tx_count', 'int'], ['header', 'jsonb']],
    [mbs.map((m) => m.hash), mbs.map((m) => m.height), mbs.map((m) => m.microIndex), mbs.map((m) => m.timeMs.toString()), mbs.map((m) => m.txCount), mbs.map((m) => json(m.header))]);
  const txs = all('transactions');
  await insertMany(db, 'transactions', [['hash', 'text'], ['height', 'int'], ['micro_block_hash', 'text'], ['micro_index', 'int'], ['tx_index', 'int'], ['micro_time_ms', 'bigint'], ['tx_type', 'text'], ['fee', 'numeric'], ['signatures', 'text[]'], ['size', 'int'], ['tx', 'jsonb']],
    [txs.map((t) => t.txHash), txs.map((t) => t.height), txs.map((t) => t.microBlockHash), txs.map((t) => t.microIndex), txs.map((t) => t.txIndex), txs.map((t) => t.microTimeMs.toString()), txs.map((t) => t.txType), txs.map((t) => t.fee), txs.map((t) => words(t.signatures)), txs.map((t) => t.size), txs.map((t) => json(t.tx))]);
  const ats = all('accountTxs');
  await insertMany(db, 'account_transactions', [['account', 'text'], ['height', 'int'], ['micro_index', 'int'], ['tx_index', 'int'], ['tx_hash', 'text'], ['tx_type', 'text'], ['fields', 'text[]']],
    [ats.map((a) => a.account), ats.map((a) => a.height), ats.map((a) => a.microIndex), ats.map((a) => a.txIndex), ats.map((a) => a.txHash), ats.map((a) => a.txType), ats.map((a) => words(a.fields))]);
  const cts = all('contracts');
  await insertMany(db, 'contracts', [['contract_id', 'text'], ['height', 'int'], ['create_tx_hash', 'text'], ['owner_id', 'text'], ['vm_version', 'text'], ['abi_version', 'text']],
    [cts.map((c) => c.contractId), cts.map((c) => c.height), cts.map((c) => c.createTxHash), cts.map((c) => c.ownerId), cts.map((c) => c.vmVersion), cts.map((c) => c.abiVersion)]);
  const calls = all('contractCalls');
  await insertMany(db, 'contract_calls', [['tx_hash', 'text'], ['height', 'int'], ['micro_index', 'int'], ['tx_index', 'int'], ['contract_id', 'text'], ['caller_id', 'text'], ['function', 'text'], ['arguments', 'jsonb'], ['call_info', 'jsonb'], ['result', 'jsonb'], ['decode_error', 'text']],
    [calls.map((c) => c.txHash), calls.map((c) => c.height), calls.map((c) => c.microIndex), calls.map((c) => c.txIndex), calls.map((c) => c.contractId), calls.map((c) => c.callerId), calls.map((c) => c.function), calls.map((c) => json(c.arguments)), calls.map((c) => json(c.callInfo)), calls.map((c) => json(c.result)), calls.map((c) => c.decodeError)]);
  const chs = all('channelEvents');
  await insertMany(db, 'channel_events', [['channel_id', 'text'], ['height', 'int'], ['micro_index', 'int'], ['tx_index', 'int'], ['tx_hash', 'text'], ['tx_type', 'text'], ['closes', 'boolean']],
    [chs.map((c) => c.channelId), chs.map((c) => c.height), chs.map((c) => c.microIndex), chs.map((c) => c.txIndex), chs.map((c) => c.txHash), chs.map((c) => c.txType), chs.map((c) => c.closes)]);

  const from = kbs[0]!.height;
  const nameActions = all('nameActions');
  const names = foldNameActions(await priorNameStates(db, [...new Set(nameActions.map((a) => a.nameHash))], from), nameActions);
  await insertMany(db, 'name_events', [['name_hash', 'text'], ['name', 'text'], ['height', 'int'], ['micro_index', 'int'], ['tx_index', 'int'], ['tx_hash', 'text'], ['kind', 'text'], ['owner', 'text'], ['expires_at', 'int'], ['auction_end', 'int'], ['name_fee', 'numeric'], ['pointers', 'jsonb']],
    [names.map((n) => n.nameHash), names.map((n) => n.name), names.map((n) => n.height), names.map((n) => n.microIndex), names.map((n) => n.txIndex), names.map((n) => n.txHash), names.map((n) => n.kind), names.map((n) => n.owner), names.map((n) => n.expiresAt), names.map((n) => n.auctionEnd), names.map((n) => n.nameFee), names.map((n) => json(n.pointers))]);
  const ptrs = all('namePointers');
  await insertMany(db, 'name_pointers', [['name_hash', 'text'], ['height', 'int'], ['micro_index', 'int'], ['tx_index', 'int'], ['key', 'text'], ['id', 'text']],
    [ptrs.map((p) => p.nameHash), ptrs.map((p) => p.height), ptrs.map((p) => p.microIndex), ptrs.map((p) => p.txIndex), ptrs.map((p) => p.key), ptrs.map((p) => p.id)]);
  const oracleActions = all('oracleActions');
  const oracles = foldOracleActions(await priorOracleStates(db, [...new Set(oracleActions.map((a) => a.oracleId))], from), oracleActions);
  await insertMany(db, 'oracle_events', [['oracle_id', 'text'], ['height', 'int'], ['micro_index', 'int'], ['tx_index', 'int'], ['tx_hash', 'text'], ['kind', 'text'], ['expires_at', 'int'], ['query_fee', 'numeric'], ['query_format', 'text'], ['response_format', 'text'], ['abi_version', 'text']],
    [oracles.map((o) => o.oracleId), oracles.map((o) => o.height), oracles.map((o) => o.microIndex), oracles.map((o) => o.txIndex), oracles.map((o) => o.txHash), oracles.map((o) => o.kind), oracles.map((o) => o.expiresAt), oracles.map((o) => o.queryFee), oracles.map((o) => o.queryFormat), oracles.map((o) => o.responseFormat), oracles.map((o) => o.abiVersion)]);
  const qs = all('oracleQueries');
  await insertMany(db, 'oracle_queries', [['query_id', 'text'], ['oracle_id', 'text'], ['height', 'int'], ['micro_index', 'int'], ['tx_index', 'int'], ['tx_hash', 'text'], ['sender_id', 'text'], ['sender_nonce', 'numeric'], ['query', 'text'], ['fee', 'numeric'], ['expires_at', 'int'], ['response_ttl', 'jsonb']],
    [qs.map((q) => q.queryId), qs.map((q) => q.oracleId), qs.map((q) => q.height), qs.map((q) => q.microIndex), qs.map((q) => q.txIndex), qs.map((q) => q.txHash), qs.map((q) => q.senderId), qs.map((q) => q.senderNonce), qs.map((q) => q.query), qs.map((q) => q.fee), qs.map((q) => q.expiresAt), qs.map((q) => json(q.responseTtl))]);
  const rs = all('oracleResponses');
  await insertMany(db, 'oracle_responses', [['query_id', 'text'], ['height', 'int'], ['micro_index', 'int'], ['tx_index', 'int'], ['tx_hash', 'text'], ['response', 'text']],
    [rs.map((r) => r.queryId), rs.map((r) => r.height), rs.map((r) => r.microIndex), rs.map((r) => r.txIndex), rs.map((r) => r.txHash), rs.map((r) => r.response)]);
  return txs.length;
}

/** recordTop sets the loaded top in sync_state (same transaction as the rows it describes). */
export async function recordTop(db: Queryable): Promise<void> {
  await db.query(
    `UPDATE sync_state SET (top_height, top_hash) = (SELECT height, hash FROM key_blocks ORDER BY height DESC LIMIT 1)`);
}
