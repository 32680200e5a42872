/**
 * @module Read-side SQL for transactions: by hash and block (the node's JSON, ae_mdw's rendered rows) and by height
 * interval (the daily spend rates are spend-rates.ts'); an id's lists are in account-transactions.ts, ae_mdw's filters in transaction-filter.ts.
 */
import { setImmediate } from 'node:timers/promises';
import { partiesChannel, partiesOf, type ChannelParties } from '../../chain/channel-parties.ts';
import type { Json } from '../../chain/json.ts';
import { innerTx, nameTxId } from '../../chain/tx-fields.ts';
import { keyset, type PageReader } from './positions.ts';
import { txTypeCode } from '../../chain/id-key.ts';
import { SIGNED_TX_KEYS, type SignedTxKey } from '../../chain/signed-tx.ts';
import { encodedStoredTx, renderStoredTx, type SignedTxJson } from '../../chain/stored-tx.ts';
import { concurrently, type Queryable } from '../connection/pool.ts';
import { placeholderSql, renderPlaceholders } from './stored-tx-json.ts';
import { checkedSignedBase64Sql, checkedSignedOfBase64, signedBase64Sql, signedOfBase64 } from './signed-base64.ts';

/** A stored transaction with its place in the chain. */
export interface TransactionRow {
  readonly hash: string;
  readonly height: number;
  readonly microBlockHash: string;
  readonly microIndex: number;
  readonly txIndex: number;
  readonly microTimeMs: number;
  readonly txType: string;
  readonly signatures: string[] | null;
  readonly tx: Json;
  /** the signed transaction as the node broadcasts it (its `encoded_tx`: encodedStoredTx), null for one kept as JSON without it */
  readonly encoded: string | null;
}

/** A stored transaction with what ae_mdw's rendering adds. */
export interface TxRow {
  readonly hash: string;
  readonly height: number;
  readonly microBlockHash: string;
  readonly microIndex: number;
  readonly txIndex: number;
  readonly microTimeMs: string;
  readonly txType: string;
  /** the stored form (chain/stored-tx.ts), from which `signatures` and `tx` are rendered */
  readonly signed: Buffer;
  /** a binary stored form as the node broadcasts it (`tx_…`, encoded_tx), null for one stored as JSON */
  readonly encoded: string | null;
  /** the id it creates as ae_mdw shows it (migration 1013; null: none, or not derived yet) */
  readonly createdId: string | null;
  readonly signatures: string[] | null;
  readonly tx: { [key: string]: Json };
  /**
   * the call's decoded function, arguments and result, and of the node's call info the members the rendering reads
   * (RENDERED_CALL_INFO), for contract calls and creations
   */
  readonly call: {
    function: string | null;
    arguments: Json;
    result: Json;
    call_info: Json;
    /** the standard of the called (or created) contract: aex9, aex141 or null */
    aexn_type: string | null;
  } | null;
  /**
   * a GAAttachTx's or GAMetaTx's own call (the ga area, 1008): its gas used (exact, as text) and return type, and a
   * GAAttachTx's authentication function and init arguments
   */
  readonly gaCall: {
    gas_used: string | null;
    return_type: string | null;
    auth_fun_name: string | null;
    args: Json;
  } | null;
  /**
   * the token standard (aex9, aex141, null: none) of the contract a GAMetaTx's inner ContractCallTx names where it made
   * no call (its inner transaction failed: no call row holds the called contract's); undefined for any other
   */
  readonly unmadeCallStandard?: string | null;
  /** the plain name of a name transaction's name_id, when known */
  readonly name: string | null;
  /** the channel's parties, for the channel transactions ae_mdw shows with them (chain/channel-parties.ts), when known */
  readonly parties: ChannelParties | null;
}

/** Paging window of a list query. */
export interface Window {
  readonly limit: number;
  readonly offset: number;
}

/** A list entry serialised by PostgreSQL (exact integers, never parsed here), with its chain position. */
export interface TxJson {
  readonly height: number;
  readonly microIndex: number;
  readonly txIndex: number;
  readonly json: string;
}

const COLUMNS = `t.hash, t.height, ${microBlockHashSql('t')} AS micro_block_hash, t.micro_index, t.tx_index, t.micro_time_ms, ${txTypeNameSql('t')} AS tx_type, t.signed`;
/**
 * microBlockHashSql is the hash of the micro block of the transaction `alias` (a `transactions` row): the micro block
 * at its position, one probe of micro_blocks' (height, micro_index) key (transactions keep no copy since 0087).
 */
export function microBlockHashSql(alias: string): string {
  return `(SELECT m.hash FROM micro_blocks m WHERE m.height = ${alias}.height AND m.micro_index = ${alias}.micro_index)`;
}
/**
 * txTypeNameSql is the type name of the transaction `alias` (a `transactions` row), whose type is stored as its code
 * since 0087 (src/chain/id-key.ts txTypeCode; the migration's tx_type_name lists the same pairs).
 */
export function txTypeNameSql(alias: string): string {
  return `tx_type_name(${alias}.tx_type)`;
}
/** NEWEST_FIRST orders `transactions t` rows newest first. */
export const NEWEST_FIRST = 'ORDER BY t.height DESC, t.micro_index DESC, t.tx_index DESC';

/**
 * signedTxJsonSql is the SQL twin of chain/signed-tx.ts `signedTx` over a `transactions t`, built from the same keys,
 * with a placeholder (stored-tx-json.ts) of `members` for `signatures` and `tx`, which renderPlaceholders renders from
 * the stored bytes: `signatures` is omitted where the node omits it (GAMetaTx); `nodeMembers` adds a 7.x node's
 * `encoded_tx`. test/integration/db/signed-tx.test.ts pins the two equal for every tx type.
 */
function signedTxJsonSql(members: 'members' | 'nodeMembers'): string {
  const sources: Readonly<Record<Exclude<SignedTxKey, 'signatures'>, string>> = {
    block_hash: microBlockHashSql('t'),
    block_height: 't.height',
    hash: 't.hash',
    tx: `to_jsonb(${placeholderSql('t', members)})`,
  };
  return `jsonb_build_object(${SIGNED_TX_KEYS.filter((k) => k !== 'signatures')
    .map((k) => `'${k}', ${sources[k]}`)
    .join(', ')})`;
}
/** SIGNED_TX_JSON is the GenericSignedTx of the original middleware's lists (no `encoded_tx`, as they never had it). */
const SIGNED_TX_JSON = signedTxJsonSql('members');
/** NODE_SIGNED_TX_JSON is the GenericSignedTx a 7.x node serves, `encoded_tx` included: the cached node answers'. */
const NODE_SIGNED_TX_JSON = signedTxJsonSql('nodeMembers');

/**
 * RAW_TX_JSON is the original's "RawTx" (its stored transaction row) built from a `transactions t`:
 * `signatures` as one space-separated string (null without signatures), `fee` as an exact decimal
 * string, `tx` the node's tx object, `size` in bytes. Its text goes through renderPlaceholders.
 */
export const RAW_TX_JSON = `jsonb_build_object('block_height', t.height, 'block_hash', ${microBlockHashSql('t')}, 'hash', t.hash,
  'signatures', to_jsonb(${placeholderSql('t', 'signaturesText')}), 'tx_type', ${txTypeNameSql('t')},
  'tx', to_jsonb(${placeholderSql('t', 'tx')}), 'fee', t.fee::text, 'size', t.size)`;

/** SIGNED_TX_JSON_COLUMNS selects a TxJson row of GenericSignedTx from a `transactions t`; its rows go through renderedTxJson. */
export const SIGNED_TX_JSON_COLUMNS = `t.height, t.micro_index AS "microIndex", t.tx_index AS "txIndex", (${SIGNED_TX_JSON})::text AS json`;

/** renderedTxJson renders the placeholders of TxJson rows (stored-tx-json.ts). */
export function renderedTxJson(rows: readonly TxJson[]): TxJson[] {
  return rows.map((r) => ({ ...r, json: renderPlaceholders(r.json) }));
}

/** transactionJson returns one mined transaction as the node's GenericSignedTx JSON text (`encoded_tx` included). */
export async function transactionJson(
  db: Queryable,
  hash: string,
): Promise<{ height: number; json: string } | undefined> {
  const { rows } = await db.query<{ height: number; json: string }>({
    name: 'mdw_transaction_json',
    text: `SELECT t.height, (${NODE_SIGNED_TX_JSON})::text AS json FROM transactions t WHERE t.hash = $1`,
    values: [hash],
  });
  return rows[0] && { height: rows[0].height, json: renderPlaceholders(rows[0].json) };
}

/**
 * microBlockTransactionsJson returns `{"transactions": [...]}` of a micro block, in block order, as JSON text, each
 * the node's GenericSignedTx (`encoded_tx` included).
 */
export async function microBlockTransactionsJson(db: Queryable, microBlockHash: string): Promise<string> {
  const { rows } = await db.query<{ json: string }>({
    name: 'mdw_micro_block_transactions',
    text: `SELECT jsonb_build_object('transactions', coalesce(jsonb_agg((${NODE_SIGNED_TX_JSON}) ORDER BY t.tx_index), '[]'::jsonb))::text AS json
       FROM micro_blocks m JOIN transactions t ON t.height = m.height AND t.micro_index = m.micro_index WHERE m.hash = $1`,
    values: [microBlockHash],
  });
  return renderPlaceholders(rows[0]!.json);
}

/**
 * microBlockTransactionJson returns the transaction at 0-based `txIndex` of a micro block as the node's GenericSignedTx
 * JSON text (`encoded_tx` included), undefined when the block holds none there.
 */
export async function microBlockTransactionJson(
  db: Queryable,
  microBlockHash: string,
  txIndex: number,
): Promise<string | undefined> {
  const { rows } = await db.query<{ json: string }>({
    name: 'mdw_micro_block_transaction',
    text: `SELECT (${NODE_SIGNED_TX_JSON})::text AS json
       FROM micro_blocks m JOIN transactions t ON t.height = m.height AND t.micro_index = m.micro_index
      WHERE m.hash = $1 AND t.tx_index = $2`,
    values: [microBlockHash, txIndex],
  });
  return rows[0] && renderPlaceholders(rows[0].json);
}

/**
 * A transaction's summary: its place, hash, stored form and the id it creates, without its call or generalized
 * account's call (what an export's CSV columns read, render-tx.ts transactionSummary).
 */
export type TxSummaryRow = Pick<
  TxRow,
  'hash' | 'height' | 'microBlockHash' | 'microIndex' | 'txIndex' | 'microTimeMs' | 'signed' | 'createdId'
>;

/** A TxSummaryRow as selected: its stored form as base64 (signed-base64.ts). */
export type StoredTxSummaryRow = Omit<TxSummaryRow, 'signed'> & { readonly signed: string };

/** TX_SUMMARY_ROW selects a StoredTxSummaryRow from a `transactions t` with TX_JOINS; summaryRows completes it. */
export const TX_SUMMARY_ROW = `t.hash, t.height, tm.hash AS "microBlockHash", t.micro_index AS "microIndex",
  t.tx_index AS "txIndex", t.micro_time_ms::text AS "microTimeMs", ${signedBase64Sql('t')} AS signed, t.created_id AS "createdId"`;

/** summaryRows reads the stored forms of TX_SUMMARY_ROW's rows. */
export function summaryRows(rows: readonly StoredTxSummaryRow[]): TxSummaryRow[] {
  return rows.map((r) => ({ ...r, signed: signedOfBase64(r.signed) }));
}

/** The types whose rendering reads their contract call (TxRow `call`), and those that read their own call (`gaCall`). */
const CALL_TYPES = ['ContractCallTx', 'ContractCreateTx'] as const;
const GA_CALL_TYPES = ['GAAttachTx', 'GAMetaTx'] as const;
/**
 * RENDERED_CALL_INFO is what TX_ROW reads of the call info of the contract_calls row `c`: the members the rendering
 * reads (render-tx.ts withAdditions), each as stored; one absent, or a call info that is no object, null, which the
 * rendering reads as it reads an absent one.
 * The node's whole call info (callInfoSql: the trimmed members put back with `jsonb ||`, its gas price, nonce and ids
 * besides) cost the page's statement a new jsonb a row, and its text PostgreSQL's output and the server's parse.
 */
const RENDERED_CALL_INFO = `json_build_object(${['gas_used', 'return_type', 'log', 'return_value']
  .map((k) => `'${k}', c.call_info -> '${k}'`)
  .join(', ')})`;
/** TX_JOINS: the micro block of a `transactions t`, which TX_ROW and TX_SUMMARY_ROW read. */
export const TX_JOINS = 'JOIN micro_blocks tm ON tm.height = t.height AND tm.micro_index = t.micro_index';

/**
 * TX_ROW selects a TxRow's stored columns from a `transactions t` with TX_JOINS; renderedRows completes it. Its call
 * (with the called contract's id, whose token standard renderedRows looks up) and generalized account's call are a
 * subquery each, not joins: PostgreSQL planned a page's
 * statement with the three more joins for longer than it ran (an export's page of 250 rows, planned per page as a
 * filtered walk is: 12–15 ms of PostgreSQL's CPU against 6–8 ms so; the plan was the same index probe per row).
 * contract_calls by position, not by hash: a page's calls then sit together in one small index (the hash index put
 * each of a page's 101 probes on a leaf page of its own, read cold from disk on a deep page); a transaction has one
 * call at most (the populator writes one) and one generalized account's call at most (ga_calls' key). Each is probed
 * only for the types whose rendering reads it (render-tx.ts mdwTx: a contract call or creation, itself or the one a
 * GAMetaTx or PayingForTx wraps; a GAAttachTx or GAMetaTx): the probes of every other row found nothing, and were
 * half of an export's page in PostgreSQL (a small ga_calls is scanned whole for each probe: 56 µs a row).
 */
export const TX_ROW = `t.hash, t.height, tm.hash AS "microBlockHash", t.micro_index AS "microIndex", t.tx_index AS "txIndex",
  t.micro_time_ms::text AS "microTimeMs", ${txTypeNameSql('t')} AS "txType", ${checkedSignedBase64Sql('t')} AS signed,
  t.created_id AS "createdId", CASE WHEN t.tx_type IN (${CALL_TYPES.map(txTypeCode).join(', ')}) OR t.inner_type IN (${CALL_TYPES.map((c) => `'${c}'`).join(', ')}) THEN
  (SELECT json_build_object('function', c.function, 'arguments', c.arguments, 'result', c.result, 'call_info', ${RENDERED_CALL_INFO},
                            'contract_id', c.contract_id)
     FROM contract_calls c WHERE c.height = t.height AND c.micro_index = t.micro_index AND c.tx_index = t.tx_index) END AS call,
  CASE WHEN t.tx_type IN (${GA_CALL_TYPES.map(txTypeCode).join(', ')}) THEN
  (SELECT json_build_object('gas_used', tg.gas_used::text, 'return_type', tg.return_type, 'auth_fun_name', tg.auth_fun_name,
                            'args', tg.args)
     FROM ga_calls tg WHERE tg.height = t.height AND tg.micro_index = t.micro_index AND tg.tx_index = t.tx_index) END AS "gaCall"`;

/** Rows renderedRows decodes at once (a few milliseconds): a list's page is one slice. */
const RENDER_SLICE = 250;

/** A call as TX_ROW selects it: the called (or created) contract's id where TxRow has its token standard. */
type StoredCall = Omit<NonNullable<TxRow['call']>, 'aexn_type'> & { readonly contract_id: string };

/**
 * A page's row as selected, its stored form and checksum as base64 (signed-base64.ts) and its call with the contract's
 * id: what renderedRows completes.
 */
export type StoredTxRow = Omit<TxRow, 'signed' | 'encoded' | 'signatures' | 'tx' | 'name' | 'parties' | 'call'> & {
  readonly signed: string;
  readonly call: StoredCall | null;
};

/**
 * renderedRows renders the rows' transactions from their stored form and adds the plain names of name transactions'
 * name_id and the parties of channel transactions' channel (one lookup each for the page: the ids are inside the
 * stored bytes, out of SQL's reach), and the token standard of the contracts the page's calls call (one lookup for the
 * page: as a subquery of each call's, a probe of 20 rows, it was half the page's statement on a chain of calls).
 */
export async function renderedRows(db: Queryable, rows: readonly StoredTxRow[]): Promise<TxRow[]> {
  const stored = rows.map((r) => checkedSignedOfBase64(r.signed));
  const rendered: SignedTxJson[] = [];
  for (let i = 0; i < rows.length; i += RENDER_SLICE) {
    // an export's page of thousands: the event loop turns between slices, so requests beside it wait behind one slice
    if (i > 0) await setImmediate();
    for (const s of stored.slice(i, i + RENDER_SLICE)) rendered.push(renderStoredTx(s.signed));
  }
  const nameIds = [...new Set(rendered.flatMap((t) => nameTxId(t.tx) ?? []))];
  const channelIds = [...new Set(rendered.flatMap((t) => partiesChannel(t.tx) ?? []))];
  const names = new Map<Json, string>();
  const unmade = rows.map((r, i) => unmadeCallContract(r, rendered[i]!.tx));
  const contractIds = [
    ...new Set([...rows.flatMap((r) => r.call?.contract_id ?? []), ...unmade.flatMap((c) => c ?? [])]),
  ];
  const [found, parties, standards] = await concurrently(db, [
    () =>
      nameIds.length === 0
        ? Promise.resolve(undefined)
        : db.query<{ name_hash: string; name: string }>({
            // prepared: an export asks it for each page, and its plan (the key's probes) is the same for any hashes
            name: 'mdw_v3_names_of_hashes',
            text: 'SELECT name_hash, name FROM name_state WHERE name_hash = ANY($1::text[])',
            values: [nameIds],
          }),
    () => channelParties(db, channelIds),
    () => tokenStandards(db, contractIds),
  ]);
  for (const r of found?.rows ?? []) names.set(r.name_hash, r.name);
  // one object a row, its stored columns and what was rendered and looked up of them
  return rows.map((r, i) => {
    const { signatures, tx } = rendered[i]!;
    return {
      ...r,
      ...stored[i]!,
      call: r.call && withStandard(r.call, standards),
      ...(unmade[i] === undefined ? {} : { unmadeCallStandard: standards.get(unmade[i]) ?? null }),
      signatures,
      tx,
      name: names.get(nameTxId(tx) ?? '') ?? null,
      parties: parties.get(partiesChannel(tx) ?? '') ?? null,
    };
  });
}

/** tokenStandards reads the token standard (aex9, aex141) of each of the contracts that has one. */
async function tokenStandards(db: Queryable, contractIds: readonly string[]): Promise<Map<string, string>> {
  if (contractIds.length === 0) return new Map();
  const { rows } = await db.query<{ contract_id: string; aexn_type: string }>({
    name: 'mdw_v3_aexn_types_of_contracts',
    text: 'SELECT contract_id, aexn_type FROM aexn_contracts WHERE contract_id = ANY($1::text[])',
    values: [contractIds],
  });
  return new Map(rows.map((r) => [r.contract_id, r.aexn_type]));
}

/**
 * unmadeCallContract is the contract a GAMetaTx's inner ContractCallTx (`tx` the GAMetaTx rendered) names where no
 * call row is stored of it, its inner transaction having failed (a GA-wrapped call that ran has one, its call info
 * pruned or not): undefined for any other row, and for a call by name (`nm_`), which resolves to no contract here.
 */
function unmadeCallContract(r: StoredTxRow, tx: { [key: string]: Json }): string | undefined {
  if (r.txType !== 'GAMetaTx' || r.call !== null) return undefined;
  const inner = innerTx(tx);
  const contract = inner?.type === 'ContractCallTx' ? inner.contract_id : undefined;
  return typeof contract === 'string' && contract.startsWith('ct_') ? contract : undefined;
}

/** withStandard is a stored call with its contract's token standard (null: none) in place of the contract's id. */
function withStandard(
  { contract_id: contractId, ...call }: StoredCall,
  standards: ReadonlyMap<string, string>,
): TxRow['call'] {
  return { ...call, aexn_type: standards.get(contractId) ?? null };
}

/** channelParties reads each channel's parties from its first transaction, its creation. */
async function channelParties(db: Queryable, channelIds: readonly string[]): Promise<Map<string, ChannelParties>> {
  const parties = new Map<string, ChannelParties>();
  if (channelIds.length === 0) return parties;
  const { rows } = await db.query<{ channel_id: string; signed: Buffer }>({
    name: 'mdw_v3_channel_creations',
    // each channel's first event alone (one probe of its index), never all of a busy channel's updates
    text: `SELECT c.id AS channel_id, t.signed
             FROM unnest($1::text[]) AS c(id)
             CROSS JOIN LATERAL (SELECT e.tx_hash FROM channel_events e WHERE e.channel_id = c.id
                                  ORDER BY e.height, e.micro_index, e.tx_index LIMIT 1) e
             JOIN transactions t ON t.hash = e.tx_hash`,
    values: [channelIds],
  });
  for (const r of rows) {
    const found = partiesOf(renderStoredTx(r.signed).tx);
    if (found) parties.set(r.channel_id, found);
  }
  return parties;
}

/** transactionByHash reads one mined transaction with its rendering extras. */
export async function transactionByHash(db: Queryable, hash: string): Promise<TxRow | undefined> {
  const { rows } = await db.query<StoredTxRow>({
    name: 'mdw_v3_transaction',
    text: `SELECT ${TX_ROW} FROM transactions t ${TX_JOINS} WHERE t.hash = $1`,
    values: [hash],
  });
  return (await renderedRows(db, rows))[0];
}

/** transactionsByHashes reads the mined transactions of a page's items in one statement, by hash (absent ones left out). */
export async function transactionsByHashes(db: Queryable, hashes: readonly string[]): Promise<Map<string, TxRow>> {
  if (hashes.length === 0) return new Map();
  const { rows } = await db.query<StoredTxRow>({
    name: 'mdw_v3_transactions_by_hash',
    text: `SELECT ${TX_ROW} FROM transactions t ${TX_JOINS} WHERE t.hash = ANY($1::text[])`,
    values: [[...new Set(hashes)]],
  });
  return new Map((await renderedRows(db, rows)).map((t) => [t.hash, t]));
}

/** microBlockTransactionsPage reads up to n transactions of a micro block walking from a tx index (inclusive). */
export const microBlockTransactionsPage: PageReader<{ height: number; microIndex: number }, number, TxRow> = async (
  db,
  block,
  { walk, from: start, n },
) => {
  const ks = keyset(['t.tx_index'], walk, start === undefined ? undefined : '$4');
  const values: unknown[] = [block.height, block.microIndex, n];
  if (start !== undefined) values.push(start);
  const { rows } = await db.query<StoredTxRow>({
    name: `mdw_v3_micro_block_txs_${walk}${start === undefined ? '' : '_from'}`,
    text: `SELECT ${TX_ROW} FROM transactions t ${TX_JOINS}
            WHERE t.height = $1 AND t.micro_index = $2 AND ${ks.where} ORDER BY ${ks.order} LIMIT $3`,
    values,
  });
  return renderedRows(db, rows);
};

/** transactionsBetween returns every transaction of heights from..to in chain order (bounded by the caller's range). */
export async function transactionsBetween(db: Queryable, from: number, to: number): Promise<TransactionRow[]> {
  const { rows } = await db.query(
    `SELECT ${COLUMNS} FROM transactions t WHERE t.height BETWEEN $1 AND $2 ORDER BY t.height, t.micro_index, t.tx_index`,
    [from, to],
  );
  return rows.map(toTransaction);
}

/** txRowsBetween reads every transaction of heights from..to as /v3 renders them, in chain order (a websocket chunk's). */
export async function txRowsBetween(db: Queryable, from: number, to: number): Promise<TxRow[]> {
  const { rows } = await db.query<StoredTxRow>({
    name: 'mdw_v3_transactions_between',
    text: `SELECT ${TX_ROW} FROM transactions t ${TX_JOINS}
            WHERE t.height BETWEEN $1 AND $2 ORDER BY t.height, t.micro_index, t.tx_index`,
    values: [from, to],
  });
  return renderedRows(db, rows);
}

/** transactionsInInterval pages the transactions of heights from..to, newest first, optionally of one type. */
export async function transactionsInInterval(
  db: Queryable,
  from: number,
  to: number,
  txType: string | undefined,
  w: Window,
): Promise<TxJson[]> {
  const { rows } = await db.query<TxJson>(
    `SELECT ${SIGNED_TX_JSON_COLUMNS} FROM transactions t
      WHERE t.height BETWEEN $1 AND $2 AND ($3::smallint IS NULL OR t.tx_type = $3)
      ${NEWEST_FIRST} LIMIT $4 OFFSET $5`,
    [from, to, txType === undefined ? null : txTypeCode(txType), w.limit, w.offset],
  );
  return renderedTxJson(rows);
}

function toTransaction(r: Record<string, unknown>): TransactionRow {
  const { signatures, tx } = renderStoredTx(r.signed as Buffer);
  return {
    hash: r.hash as string,
    height: r.height as number,
    microBlockHash: r.micro_block_hash as string,
    microIndex: r.micro_index as number,
    txIndex: r.tx_index as number,
    microTimeMs: Number(r.micro_time_ms),
    txType: r.tx_type as string,
    signatures,
    tx,
    encoded: encodedStoredTx(r.signed as Buffer),
  };
}
