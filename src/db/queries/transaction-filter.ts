/** @module Read-side SQL for ae_mdw's transaction query engine: filters ANDed over account_transactions, keyset pages, counts. */
import { fieldsPattern, PAIR_FIELDS } from './account-fields.ts';
import { accountNumberSql } from './account-ids.ts';
import { idKey, isKnownTxType, txTypeCode } from '../../chain/id-key.ts';
import type { Queryable } from '../connection/pool.ts';
import { StatementNames } from '../connection/statement-names.ts';
import { keyset, tighterStart, type TxPosition, type Walk, type KeyWindow, type PageReader } from './positions.ts';
import { transactionCountBetween } from './txis.ts';
import {
  renderedRows,
  summaryRows,
  TX_JOINS,
  TX_ROW,
  TX_SUMMARY_ROW,
  type StoredTxRow,
  type StoredTxSummaryRow,
  type TxRow,
  type TxSummaryRow,
} from './transactions.ts';

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
  // fields are stored space-separated (migration 1000)
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
 * Both account_transactions and transactions keep types as codes (migration 1000).
 */
function typeSql(a: string, types: readonly string[], p: Params): string {
  const known = types.filter(isKnownTxType).map(txTypeCode);
  const unknown = types.filter((t) => !isKnownTxType(t));
  // a type the code does not know has the code unknown_tx_types gave its name (migration 1011), found once per query
  if (unknown.length === 0 && known.length === 1) return `${a}.tx_type = ${p.add(known[0])}`;
  if (known.length === 0 && unknown.length === 1)
    return `${a}.tx_type = (SELECT u.code FROM unknown_tx_types u WHERE u.name = ${p.add(unknown[0])})`;
  const codes = `${p.add(known)}::smallint[]`;
  return unknown.length === 0
    ? `${a}.tx_type = ANY(${codes})`
    : `${a}.tx_type = ANY(${codes} || ARRAY(SELECT u.code FROM unknown_tx_types u WHERE u.name = ANY(${p.add(unknown)}::text[])))`;
}

function conditionSql(a: string, c: IdCondition, p: Params): string {
  const id = `${a}.account = ${accountNumberSql(p.add(idKey(c.id)))}`;
  if (c.matches.length === 0) return id;
  return `${id} AND (${c.matches.map((m) => `(${matchSql(a, m, p)})`).join(' OR ')})`;
}

/** A way to appear that names exactly `fields`, the transaction's own or a wrapped one's, of any type. */
const namesFields = (c: IdCondition, fields: readonly string[]): boolean =>
  c.matches.length === 1 &&
  c.matches[0]!.txTypes === undefined &&
  c.matches[0]!.innerType === undefined &&
  c.matches[0]!.fields?.length === fields.length &&
  fields.every((field) => c.matches[0]!.fields!.includes(field));

/**
 * pairOf: a filter of one id as `sender_id` and another as `recipient_id`, and no other id nor entrypoint, selects the
 * rows of account_pairs of the two (migration 1077 pairs the account rows so), walked in position order on its key:
 * a page reads its own rows, never the spends of either side. Undefined for any other filter.
 */
function pairOf(f: TxFilter): { sender: string; recipient: string } | undefined {
  if (f.ids.length !== 2 || f.entrypoint !== undefined || f.ids[0]!.id === f.ids[1]!.id) return undefined;
  const sender = f.ids.find((c) => namesFields(c, PAIR_FIELDS.sender));
  const recipient = f.ids.find((c) => c !== sender && namesFields(c, PAIR_FIELDS.recipient));
  return sender && recipient ? { sender: sender.id, recipient: recipient.id } : undefined;
}

/**
 * fromWhere is the FROM and WHERE of the rows a filter selects, as `s` with position columns
 * height, micro_index, tx_index: the pair's rows (pairOf), or account_transactions of the
 * first id (its index leads with the id and the position), the other ids probed at the same position, or
 * the transactions table when no id is given.
 */
function fromWhere(f: TxFilter, p: Params): string {
  const where: string[] = [];
  let from: string;
  const [first, ...rest] = f.ids;
  const pair = pairOf(f);
  if (pair) {
    from = 'account_pairs s';
    where.push(
      `s.sender = ${accountNumberSql(p.add(idKey(pair.sender)))}`,
      `s.recipient = ${accountNumberSql(p.add(idKey(pair.recipient)))}`,
    );
  } else if (first) {
    from = 'account_transactions s';
    where.push(conditionSql('s', first, p));
    rest.forEach((c, i) => {
      if (c.id === first.id) return void where.push(conditionSql('s', c, p)); // the same row (onOneRow)
      const a = `a${i + 1}`;
      where.push(
        probe(`FROM account_transactions ${a} WHERE ${conditionSql(a, c, p)}
        AND ${a}.height = s.height AND ${a}.micro_index = s.micro_index AND ${a}.tx_index = s.tx_index`),
      );
    });
  } else {
    from = 'transactions s';
  }
  if (f.types && pair)
    where.push(
      probe(`FROM transactions ty WHERE ty.height = s.height AND ty.micro_index = s.micro_index
        AND ty.tx_index = s.tx_index AND ${typeSql('ty', f.types, p)}`),
    );
  else if (f.types) where.push(typeSql('s', f.types, p));
  if (f.entrypoint !== undefined) {
    // account_transactions keeps no hash (migration 1000): the transaction's, through its position
    const hash = first
      ? '(SELECT t.hash FROM transactions t WHERE t.height = s.height AND t.micro_index = s.micro_index AND t.tx_index = s.tx_index)'
      : 's.hash';
    where.push(probe(`FROM contract_calls c WHERE c.tx_hash = ${hash} AND c.function = ${p.add(f.entrypoint)}`));
  }
  if (f.from) where.push(`(${POSITION.join(', ')}) >= (${positionParams(f.from, p)})`);
  if (f.to) where.push(`(${POSITION.join(', ')}) <= (${positionParams(f.to, p)})`);
  return `FROM ${from} WHERE ${where.length === 0 ? 'true' : where.join(' AND ')}`;
}

function positionParams(at: TxPosition, p: Params): string {
  return `${p.add(at.height)}::int, ${p.add(at.microIndex)}::int, ${p.add(at.txIndex)}::int`;
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
export const transactionsPage: PageReader<TxFilter, TxPosition, TxRow> = async (db, f, window) =>
  renderedRows(db, await selectedPage<StoredTxRow>(db, { columns: TX_ROW, joins: TX_JOINS }, f, window));

/**
 * transactionSummariesPage reads the summaries (TxSummaryRow: no call, no generalized account's call, nothing decoded)
 * of up to n transactions the filter selects, walking from a position (inclusive): a CSV export's page, a third of
 * transactionsPage's work in PostgreSQL.
 */
export const transactionSummariesPage: PageReader<TxFilter, TxPosition, TxSummaryRow> = async (db, f, window) => {
  return summaryRows(
    await selectedPage<StoredTxSummaryRow>(db, { columns: TX_SUMMARY_ROW, joins: TX_JOINS }, f, window),
  );
};

/** selectedPage selects `columns` of the transactions `t` (with `joins`) of up to n rows the filter selects. */
async function selectedPage<R extends object>(
  db: Queryable,
  { columns, joins }: { columns: string; joins: string },
  f: TxFilter,
  window: KeyWindow<TxPosition>,
): Promise<R[]> {
  const p = new Params();
  const page = pageSql(f, window, p);
  const order = keyset(['t.height', 't.micro_index', 't.tx_index'], window.walk, undefined).order;
  const text = `WITH page AS (${page})
      SELECT ${columns} FROM page g
        JOIN transactions t ON t.height = g.height AND t.micro_index = g.micro_index AND t.tx_index = g.tx_index
        ${joins}
      ORDER BY ${order}`;
  const { rows } = await db.query<R>({ name: statementName(PAGE_STATEMENTS, f, text), text, values: p.values });
  return rows;
}

/**
 * transactionPositions reads only the positions of up to n transactions the filter selects, walking
 * from a position (inclusive): what a page needs of its neighbours for its links.
 */
export const transactionPositions: PageReader<TxFilter, TxPosition, TxPosition> = async (db, f, window) => {
  const p = new Params();
  const text = `SELECT g.height, g.micro_index AS "microIndex", g.tx_index AS "txIndex" FROM (${pageSql(f, window, p)}) g`;
  const { rows } = await db.query<TxPosition>({ name: statementName(KEY_STATEMENTS, f, text), text, values: p.values });
  return rows;
};

/**
 * fromCursor is the filter and start of a walk from a cursor with the range's bound on the walk's side folded into the
 * start (tighterStart), so that the page's statement compares the position once on that side. Pure.
 */
export function fromCursor(
  f: TxFilter,
  walk: Walk,
  start: TxPosition | undefined,
): { f: TxFilter; start: TxPosition | undefined } {
  const bound = walk === 'forward' ? f.from : f.to;
  if (start === undefined || bound === undefined) return { f, start };
  const folded = walk === 'forward' ? { ...f, from: undefined } : { ...f, to: undefined };
  return { f: folded, start: tighterStart(walk, start, bound) };
}

/** pageSql selects the positions of up to n rows the filter selects from the window's start on, in its walk's order. */
function pageSql(filter: TxFilter, { walk, from: cursor, n }: KeyWindow<TxPosition>, p: Params): string {
  const { f, start } = fromCursor(filter, walk, cursor);
  const ks = keyset(POSITION, walk, start === undefined ? undefined : positionParams(start, p));
  if (onTwoFields(f)) {
    const limit = p.add(n);
    const walked = `AND ${ks.where} ORDER BY ${ks.order} LIMIT ${limit}`;
    return `SELECT s.height, s.micro_index, s.tx_index ${twoFieldsFromWhere(f, p, walked)} ORDER BY ${ks.order} LIMIT ${limit}`;
  }
  const walkedTypes = typesWalkedApart(f);
  if (walkedTypes !== undefined) {
    const limit = p.add(n);
    const walks = walkedTypes.map(
      (type) =>
        `(SELECT s.height, s.micro_index, s.tx_index ${fromWhere({ ...f, types: [type] }, p)} AND ${ks.where}
           ORDER BY ${ks.order} LIMIT ${limit})`,
    );
    return `SELECT s.height, s.micro_index, s.tx_index FROM (${walks.join(' UNION ALL ')}) s ORDER BY ${ks.order} LIMIT ${limit}`;
  }
  const body = fromWhere(f, p);
  return `SELECT s.height, s.micro_index, s.tx_index ${body} AND ${ks.where} ORDER BY ${ks.order} LIMIT ${p.add(n)}`;
}

/**
 * typesWalkedApart: the types of a walk over every transaction (no id) of several types, each walked on its own along
 * transactions_type (type, position) and the walks merged: `tx_type = ANY(…)` on that index reads every transaction
 * of the types and sorts them for a page (every contract creation of the chain for `/v3/contracts`), while each
 * walk reads at most a page. Undefined for one type or a walk with ids.
 */
function typesWalkedApart(f: TxFilter): readonly string[] | undefined {
  return f.ids.length === 0 && f.types !== undefined && f.types.length > 1 ? f.types : undefined;
}

/**
 * onTwoFields: the conditions are all of one id and two of them name fields no way of the other names, so a row that
 * holds both names two fields (`sender_id=A&recipient_id=A`, a spend to oneself): a row of index 1047, which holds
 * only such rows. No inner type or entrypoint, whose probes read the transaction of a row.
 */
function onTwoFields(f: TxFilter): boolean {
  if (f.ids.length < 2 || !onOneRow(f.ids) || f.entrypoint !== undefined) return false;
  const ways = f.ids.map((c) => c.matches);
  if (ways.some((ms) => ms.length === 0 || ms.some((m) => m.fields === undefined || m.innerType !== undefined)))
    return false;
  const disjoint = (a: readonly IdMatch[], b: readonly IdMatch[]): boolean =>
    a.every((m) => b.every((o) => !m.fields!.some((field) => o.fields!.includes(field))));
  return ways.some((a, i) => ways.slice(i + 1).some((b) => disjoint(a, b)));
}

/**
 * twoFieldsFromWhere is the FROM and WHERE of an onTwoFields filter's rows, as `s` with the position columns: the
 * (type, fields) the id's kept counts (migration 1015) hold that match the conditions, each walked on index 1047 with
 * `walked` (a page's keyset, order and limit: each reads at most a page), so nothing reads the id's other rows.
 */
function twoFieldsFromWhere(f: TxFilter, p: Params, walked: string): string {
  const kept = [...f.ids.map((c) => conditionSql('k', c, p)), ...(f.types ? [typeSql('k', f.types, p)] : [])];
  const range = [
    ...(f.from ? [`(${POSITION.join(', ')}) >= (${positionParams(f.from, p)})`] : []),
    ...(f.to ? [`(${POSITION.join(', ')}) <= (${positionParams(f.to, p)})`] : []),
  ];
  return `FROM account_tx_counts k CROSS JOIN LATERAL (
      SELECT s.height, s.micro_index, s.tx_index FROM account_transactions s
       WHERE s.account = k.account AND s.tx_type = k.tx_type AND s.fields = k.fields AND s.fields LIKE '% %'
         ${range.map((r) => `AND ${r}`).join(' ')} ${walked}) s
    WHERE ${kept.join(' AND ')}`;
}

/**
 * countTransactions counts what the filter selects: from the counts migration 1015 keeps where no range, entrypoint or
 * inner type narrows it (a sum of a few rows whatever the chain's size), else index-only where the filter allows.
 */
export async function countTransactions(db: Queryable, f: TxFilter): Promise<number> {
  const p = new Params();
  const kept = keptCountSql(f, p);
  if (kept !== undefined) {
    const { rows } = await db.query<{ n: string }>({ text: kept, values: p.values });
    return Number(rows[0]?.n ?? 0);
  }
  if (f.ids.length === 0 && !f.types && f.entrypoint === undefined)
    // Every transaction of a range: two txis' difference.
    return transactionCountBetween(
      db,
      f.from ?? { height: 0, microIndex: 0, txIndex: 0 },
      f.to ?? { height: MAX_INDEX, microIndex: MAX_INDEX, txIndex: MAX_INDEX },
    );
  const from = onTwoFields(f) ? twoFieldsFromWhere(f, p, '') : fromWhere(f, p);
  const { rows } = await db.query<{ n: string }>({ text: `SELECT count(*) AS n ${from}`, values: p.values });
  return Number(rows[0]?.n ?? 0);
}

/**
 * onOneRow: the conditions are all of one id (`sender_id=A&recipient_id=A`), so they hold together on its one
 * account_transactions row of a transaction (its key is the id and the position), never on two ids' rows.
 */
function onOneRow(ids: readonly IdCondition[]): boolean {
  return ids.every((c) => c.id === ids[0]!.id);
}

/**
 * keptCountSql is the statement that sums the kept counts for a filter over the whole chain with one id at most (or
 * several conditions of the same id) whose ways to appear name types and fields only (the kept rows have
 * account_transactions' account, tx_type and fields, so the same conditions read them), undefined for any other filter.
 */
function keptCountSql(f: TxFilter, p: Params): string | undefined {
  if (f.from || f.to || f.entrypoint !== undefined || !onOneRow(f.ids)) return undefined;
  if (f.ids.some((c) => c.matches.some((m) => m.innerType !== undefined))) return undefined;
  const where = [
    ...(f.ids.length === 0 ? ['true'] : f.ids.map((c) => conditionSql('k', c, p))),
    ...(f.types ? [typeSql('k', f.types, p)] : []),
  ].join(' AND ');
  const table = f.ids.length > 0 ? 'account_tx_counts' : 'tx_type_totals';
  return `SELECT coalesce(sum(k.n), 0)::text AS n FROM ${table} k WHERE ${where}`;
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
