/** @module Read-side SQL for ae_mdw's transaction query engine: filters ANDed over account_transactions, keyset pages, counts. */
import { fieldsPattern } from '../account-fields.ts';
import { callInfoSql } from '../call-info.ts';
import { accountNumberSql } from '../account-ids.ts';
import { idKey, TX_TYPE_CODES, txTypeCode } from '../../../chain/id-key.ts';
import type { Json } from '../../../chain/json.ts';
import { renderStoredTx } from '../../../chain/stored-tx.ts';
import type { Queryable } from '../../pool.ts';
import { StatementNames } from '../../statement-names.ts';
import { keyset, type Walk } from './positions.ts';
import { microBlockHashSql, txTypeNameSql } from '../transactions.ts';

/** A transaction's place in the chain: its generation, micro block in it, and index in that. */
export interface TxPosition {
  readonly height: number;
  readonly microIndex: number;
  readonly txIndex: number;
}

/** One way an id may appear: in any of `fields` (all fields when absent) of a tx of `txTypes`, or of an inner tx of `innerType`. */
export interface IdMatch {
  readonly txTypes?: readonly string[];
  readonly fields?: readonly string[];
  readonly innerType?: string;
}

/** An id that must appear in the transaction, in one of the ways (any way when the list is empty). */
export interface IdCondition {
  readonly id: string;
  readonly matches: readonly IdMatch[];
}

/** What a transaction list or count selects; all conditions hold together. */
export interface TxFilter {
  /** outer transaction types (the node's names) */
  readonly types?: readonly string[];
  readonly ids: readonly IdCondition[];
  /** contract calls of this function only */
  readonly entrypoint?: string;
  /** inclusive position bounds */
  readonly from?: TxPosition;
  readonly to?: TxPosition;
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
  readonly signatures: string[] | null;
  readonly tx: { [key: string]: Json };
  /** the call's decoded function, arguments, result and the node's call info, for contract calls and creations */
  readonly call: {
    function: string | null;
    arguments: Json;
    result: Json;
    call_info: Json;
    /** the standard of the called (or created) contract: aex9, aex141 or null */
    aexn_type: string | null;
  } | null;
  /** the plain name of a name transaction's name_id, when known */
  readonly name: string | null;
}

const MAX_INDEX = 2 ** 31 - 1;
const POSITION = ['s.height', 's.micro_index', 's.tx_index'];

/** Statement parameters, numbered as they are added. */
class Params {
  readonly values: unknown[] = [];
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

/**
 * probe is "a row exists" as a sub-plan run per candidate row. An EXISTS would let the planner turn
 * the walk around (drive from the probed table over all its rows, then sort): with the walk in
 * position order and a LIMIT, probing each candidate stops after one page (measured: a two-id page
 * over a 100k-row account took minutes as a semi-join).
 */
function probe(fromWhere: string): string {
  return `coalesce((SELECT true ${fromWhere} LIMIT 1), false)`;
}

/** matchSql is the condition on an account_transactions row `a` for one way the id may appear. */
function matchSql(a: string, m: IdMatch, p: Params): string {
  const parts: string[] = [];
  if (m.txTypes) parts.push(typeSql(a, m.txTypes, p));
  // fields are stored space-separated (migration 0035)
  if (m.fields) parts.push(`${a}.fields ~ ${p.add(fieldsPattern(m.fields))}`);
  if (m.innerType)
    parts.push(
      probe(`FROM transactions ti WHERE ti.height = ${a}.height AND ti.micro_index = ${a}.micro_index
      AND ti.tx_index = ${a}.tx_index AND ti.inner_type = ${p.add(m.innerType)}`),
    );
  return parts.length === 0 ? 'true' : parts.join(' AND ');
}

/**
 * typeSql is the type condition; one type is an equality, so the (…, tx_type, height, micro_index,
 * tx_index) indexes hand out rows already in position order and a page reads only its own rows.
 * Both account_transactions and transactions keep types as codes (0032, 0087).
 */
function typeSql(a: string, types: readonly string[], p: Params): string {
  const codes = types.map(txTypeCode);
  return codes.length === 1 ? `${a}.tx_type = ${p.add(codes[0])}` : `${a}.tx_type = ANY(${p.add(codes)}::smallint[])`;
}

function conditionSql(a: string, c: IdCondition, p: Params): string {
  const id = `${a}.account = ${accountNumberSql(p.add(idKey(c.id)))}`;
  if (c.matches.length === 0) return id;
  return `${id} AND (${c.matches.map((m) => `(${matchSql(a, m, p)})`).join(' OR ')})`;
}

/**
 * fromWhere is the FROM and WHERE of the rows a filter selects, as `s` with position columns
 * height, micro_index, tx_index and the hash as `s_hash`: account_transactions of the first id
 * (its index leads with the id and the position), the other ids probed at the same position, or
 * the transactions table when no id is given.
 */
function fromWhere(f: TxFilter, p: Params): string {
  const where: string[] = [];
  let from: string;
  let hash: string;
  const [first, ...rest] = f.ids;
  if (first) {
    from = 'account_transactions s';
    // account_transactions keeps no hash (migration 0031): the transaction's, through its position
    hash =
      '(SELECT t.hash FROM transactions t WHERE t.height = s.height AND t.micro_index = s.micro_index AND t.tx_index = s.tx_index)';
    where.push(conditionSql('s', first, p));
    rest.forEach((c, i) => {
      const a = `a${i + 1}`;
      where.push(
        probe(`FROM account_transactions ${a} WHERE ${conditionSql(a, c, p)}
        AND ${a}.height = s.height AND ${a}.micro_index = s.micro_index AND ${a}.tx_index = s.tx_index`),
      );
    });
  } else {
    from = 'transactions s';
    hash = 's.hash';
  }
  if (f.types) where.push(typeSql('s', f.types, p));
  if (f.entrypoint !== undefined)
    where.push(probe(`FROM contract_calls c WHERE c.tx_hash = ${hash} AND c.function = ${p.add(f.entrypoint)}`));
  if (f.from) where.push(`(${POSITION.join(', ')}) >= (${positionParams(f.from, p)})`);
  if (f.to) where.push(`(${POSITION.join(', ')}) <= (${positionParams(f.to, p)})`);
  return `FROM ${from} WHERE ${where.length === 0 ? 'true' : where.join(' AND ')}`;
}

function positionParams(at: TxPosition, p: Params): string {
  return `${p.add(at.height)}::int, ${p.add(at.microIndex)}::int, ${p.add(at.txIndex)}::int`;
}

const ROW = `t.hash, t.height, ${microBlockHashSql('t')} AS "microBlockHash", t.micro_index AS "microIndex", t.tx_index AS "txIndex",
  t.micro_time_ms::text AS "microTimeMs", ${txTypeNameSql('t')} AS "txType", t.signed,
  CASE WHEN c.tx_hash IS NULL THEN NULL
       ELSE json_build_object('function', c.function, 'arguments', c.arguments, 'result', c.result, 'call_info', ${callInfoSql('c')},
                              'aexn_type', (SELECT a.aexn_type FROM aexn_contracts a WHERE a.contract_id = c.contract_id)) END AS call`;
// contract_calls by position, not by hash: a page's calls then sit together in one small index
// (the hash index put each of a page's 101 probes on a leaf page of its own, read cold from disk on
// a deep page)
const JOINS = `LEFT JOIN contract_calls c ON c.height = t.height AND c.micro_index = t.micro_index AND c.tx_index = t.tx_index`;

/** A page's row as selected: what renderedRows completes. */
type StoredTxRow = Omit<TxRow, 'signatures' | 'tx' | 'name'>;
const NAME_TXS = new Set(['NameUpdateTx', 'NameTransferTx', 'NameRevokeTx']);

/**
 * renderedRows renders the rows' transactions from their stored form and adds the plain names of name transactions'
 * name_id (one lookup for the page: the name_id is inside the stored bytes, out of SQL's reach).
 */
export async function renderedRows(db: Queryable, rows: readonly StoredTxRow[]): Promise<TxRow[]> {
  const txs = rows.map((r) => ({ ...r, ...renderStoredTx(r.signed) }));
  const nameIds = [
    ...new Set(txs.filter((t) => NAME_TXS.has(t.txType) && typeof t.tx.name_id === 'string').map((t) => t.tx.name_id)),
  ];
  const names = new Map<Json, string>();
  if (nameIds.length > 0) {
    const found = await db.query<{ name_hash: string; name: string }>(
      'SELECT name_hash, name FROM name_state WHERE name_hash = ANY($1::text[])',
      [nameIds],
    );
    for (const r of found.rows) names.set(r.name_hash, r.name);
  }
  return txs.map((t) => ({ ...t, name: (NAME_TXS.has(t.txType) && names.get(t.tx.name_id ?? null)) || null }));
}

/**
 * Prepared statements of pages and of their neighbours' positions, for walks over all transactions
 * (a range at most: no id, type or entrypoint). Their plan does not depend on the values, so the
 * generic plan PostgreSQL settles on is the one each request would get. A filtered walk is planned
 * for its values every time: a generic plan cannot tell an id with 100k transactions from one with
 * ten, and for the two-id page of such an account it sorted all 50k rows before the cursor (481 ms
 * against 16 ms planned for the values).
 */
const PAGE_STATEMENTS = new StatementNames('mdw_v3_txs_page', 16);
const KEY_STATEMENTS = new StatementNames('mdw_v3_txs_keys', 16);

/** statementName is the prepared statement's name for a walk over all transactions, none for a filtered one. */
function statementName(names: StatementNames, f: TxFilter, text: string): string | undefined {
  return f.ids.length === 0 && f.types === undefined && f.entrypoint === undefined ? names.nameOf(text) : undefined;
}

/** transactionsPage reads up to n transactions the filter selects, walking from a position (inclusive). */
export async function transactionsPage(
  db: Queryable,
  f: TxFilter,
  walk: Walk,
  start: TxPosition | undefined,
  n: number,
): Promise<TxRow[]> {
  const p = new Params();
  const page = pageSql(f, walk, start, n, p);
  const order = keyset(['t.height', 't.micro_index', 't.tx_index'], walk, undefined).order;
  const text = `WITH page AS (${page})
      SELECT ${ROW} FROM page g
        JOIN transactions t ON t.height = g.height AND t.micro_index = g.micro_index AND t.tx_index = g.tx_index
        ${JOINS}
      ORDER BY ${order}`;
  const { rows } = await db.query<StoredTxRow>({
    name: statementName(PAGE_STATEMENTS, f, text),
    text,
    values: p.values,
  });
  return renderedRows(db, rows);
}

/**
 * transactionPositions reads only the positions of up to n transactions the filter selects, walking
 * from a position (inclusive): what a page needs of its neighbours for its links.
 */
export async function transactionPositions(
  db: Queryable,
  f: TxFilter,
  walk: Walk,
  start: TxPosition | undefined,
  n: number,
): Promise<TxPosition[]> {
  const p = new Params();
  const text = `SELECT g.height, g.micro_index AS "microIndex", g.tx_index AS "txIndex" FROM (${pageSql(f, walk, start, n, p)}) g`;
  const { rows } = await db.query<TxPosition>({ name: statementName(KEY_STATEMENTS, f, text), text, values: p.values });
  return rows;
}

/** pageSql selects the positions of up to n rows the filter selects from `start` on, in the walk's order. */
function pageSql(f: TxFilter, walk: Walk, start: TxPosition | undefined, n: number, p: Params): string {
  const body = fromWhere(f, p);
  const ks = keyset(POSITION, walk, start === undefined ? undefined : positionParams(start, p));
  return `SELECT s.height, s.micro_index, s.tx_index ${body} AND ${ks.where} ORDER BY ${ks.order} LIMIT ${p.add(n)}`;
}

/** countTransactions counts what the filter selects (index-only where the filter allows). */
export async function countTransactions(db: Queryable, f: TxFilter): Promise<number> {
  const p = new Params();
  if (f.ids.length === 0 && !f.types && f.entrypoint === undefined) {
    // Every transaction of a range: the micro blocks' counts, one narrow row per micro block.
    const lo = f.from ?? { height: 0, microIndex: 0, txIndex: 0 };
    const hi = f.to ?? { height: MAX_INDEX, microIndex: MAX_INDEX, txIndex: MAX_INDEX };
    const { rows } = await db.query<{ n: string }>(
      `SELECT (coalesce((SELECT sum(m.tx_count) FROM micro_blocks m WHERE (m.height, m.micro_index) > ($1::int, $2::int)
                  AND (m.height, m.micro_index) < ($4::int, $5::int)), 0)
             + (SELECT count(*) FROM transactions s WHERE (s.height, s.micro_index) IN (($1, $2), ($4, $5))
                  AND (s.height, s.micro_index, s.tx_index) BETWEEN ($1, $2, $3) AND ($4, $5, $6)))::text AS n`,
      [lo.height, lo.microIndex, lo.txIndex, hi.height, hi.microIndex, hi.txIndex],
    );
    return Number(rows[0]?.n ?? 0);
  }
  const { rows } = await db.query<{ n: string }>({ text: `SELECT count(*) AS n ${fromWhere(f, p)}`, values: p.values });
  return Number(rows[0]?.n ?? 0);
}

/** transactionByHash reads one mined transaction with its rendering extras. */
export async function transactionByHash(db: Queryable, hash: string): Promise<TxRow | undefined> {
  const { rows } = await db.query<StoredTxRow>({
    name: 'mdw_v3_transaction',
    text: `SELECT ${ROW} FROM transactions t ${JOINS} WHERE t.hash = $1`,
    values: [hash],
  });
  return (await renderedRows(db, rows))[0];
}

/** transactionsByHashes reads the mined transactions of a page's items in one statement, by hash (absent ones left out). */
export async function transactionsByHashes(db: Queryable, hashes: readonly string[]): Promise<Map<string, TxRow>> {
  if (hashes.length === 0) return new Map();
  const { rows } = await db.query<StoredTxRow>({
    name: 'mdw_v3_transactions_by_hash',
    text: `SELECT ${ROW} FROM transactions t ${JOINS} WHERE t.hash = ANY($1::text[])`,
    values: [[...new Set(hashes)]],
  });
  return new Map((await renderedRows(db, rows)).map((t) => [t.hash, t]));
}

/** microBlockTransactionsPage reads up to n transactions of a micro block walking from a tx index (inclusive). */
export async function microBlockTransactionsPage(
  db: Queryable,
  block: { height: number; microIndex: number },
  walk: Walk,
  start: number | undefined,
  n: number,
): Promise<TxRow[]> {
  const ks = keyset(['t.tx_index'], walk, start === undefined ? undefined : '$4');
  const values: unknown[] = [block.height, block.microIndex, n];
  if (start !== undefined) values.push(start);
  const { rows } = await db.query<StoredTxRow>({
    name: `mdw_v3_micro_block_txs_${walk}${start === undefined ? '' : '_from'}`,
    text: `SELECT ${ROW} FROM transactions t ${JOINS}
            WHERE t.height = $1 AND t.micro_index = $2 AND ${ks.where} ORDER BY ${ks.order} LIMIT $3`,
    values,
  });
  return renderedRows(db, rows);
}

/** accountFieldCounts counts an id's transactions, and per outer type the fields it appears in. */
export async function accountFieldCounts(
  db: Queryable,
  id: string,
): Promise<{ total: number; byField: { txType: string; field: string; n: number }[] }> {
  const [total, byField] = await Promise.all([
    db.query<{ n: string }>({
      name: 'mdw_v3_account_tx_total',
      text: `SELECT count(*) AS n FROM account_transactions WHERE account = ${accountNumberSql('$1')}`,
      values: [idKey(id)],
    }),
    db.query<{ txType: string; field: string; n: string }>({
      name: 'mdw_v3_account_tx_fields',
      // types are stored as codes; their names order the answer (in the database's collation, as before)
      text: `SELECT n.name AS "txType", x.f AS field, x.n
               FROM (SELECT tx_type, f, count(*) AS n FROM account_transactions, unnest(string_to_array(fields, ' ')) AS f
                      WHERE account = ${accountNumberSql('$1')} GROUP BY 1, 2) x
               JOIN unnest($2::smallint[], $3::text[]) AS n(code, name) ON n.code = x.tx_type
              ORDER BY 1, 2`,
      values: [idKey(id), TX_TYPE_CODES.map(([, code]) => code), TX_TYPE_CODES.map(([type]) => type)],
    }),
  ]);
  return {
    total: Number(total.rows[0]?.n ?? 0),
    byField: byField.rows.map((r) => ({ txType: r.txType, field: r.field, n: Number(r.n) })),
  };
}

/** positionsOfTime is the first position at or after `fromMs` and the last at or before `toMs` (micro block times). */
export async function positionsOfTime(
  db: Queryable,
  fromMs: number,
  toMs: number,
): Promise<{ from: TxPosition; to: TxPosition }> {
  const { rows } = await db.query<{
    lo_h: number | null;
    lo_m: number | null;
    hi_h: number | null;
    hi_m: number | null;
  }>({
    name: 'mdw_v3_positions_of_time',
    text: `SELECT lo.height AS lo_h, lo.micro_index AS lo_m, hi.height AS hi_h, hi.micro_index AS hi_m
             FROM (SELECT height, micro_index FROM micro_blocks WHERE time_ms >= $1 ORDER BY time_ms, height, micro_index LIMIT 1) lo
             FULL JOIN (SELECT height, micro_index FROM micro_blocks WHERE time_ms <= $2
                         ORDER BY time_ms DESC, height DESC, micro_index DESC LIMIT 1) hi ON true`,
    values: [fromMs, toMs],
  });
  const r = rows[0];
  if (!r || r.lo_h === null || r.hi_h === null) {
    // nothing in the interval: an empty range
    return { from: { height: MAX_INDEX, microIndex: 0, txIndex: 0 }, to: { height: 0, microIndex: 0, txIndex: 0 } };
  }
  return {
    from: { height: r.lo_h, microIndex: r.lo_m!, txIndex: 0 },
    to: { height: r.hi_h, microIndex: r.hi_m!, txIndex: MAX_INDEX },
  };
}
