/**
 * @module Read-side SQL for account_transactions (one row per id a transaction references): an id's transaction
 * pages (the original's, from the newest or, deep down, from the oldest end), their counts, the fields an id
 * appears in (ae_mdw's), and the ids of a range of heights (the websocket's).
 */
import { idKey, idOfKey, TX_TYPE_CODES, txTypeCode } from '../../chain/id-key.ts';
import { concurrently, type Queryable } from '../connection/pool.ts';
import { accountNumberSql } from './account-ids.ts';
import { topHeight } from './blocks.ts';
import { placeholderSql } from './stored-tx-json.ts';
import { microBlockHashSql, NEWEST_FIRST, renderedTxJson, type TxJson, type Window } from './transactions.ts';

// account_transactions names an id by its number (migration 1000); the queries below are given its key as $1
const ACCOUNT = accountNumberSql('$1');

// The original's account-list entry: the transaction plus its micro block time; `signatures` always present.
const ACCOUNT_TX_JSON = `jsonb_build_object('time', t.micro_time_ms, 'block_height', t.height, 'block_hash', ${microBlockHashSql('t')},
  'hash', t.hash, 'signatures', to_jsonb(${placeholderSql('t', 'signatures')}), 'tx', to_jsonb(${placeholderSql('t', 'tx')}))`;
const ACCOUNT_TX_JSON_COLUMNS = `t.height, t.micro_index AS "microIndex", t.tx_index AS "txIndex", (${ACCOUNT_TX_JSON})::text AS json`;

/** A keyset position: the list continues strictly below (older than) this transaction. */
export interface Cursor {
  readonly height: number;
  readonly microIndex: number;
  readonly txIndex: number;
}

/**
 * transactionsOfAccount pages every transaction referencing the id, newest first. The page is
 * chosen on the narrow account_transactions index alone; only the rows returned touch the
 * transactions table.
 */
export async function transactionsOfAccount(
  db: Queryable,
  account: string,
  txType: string | undefined,
  w: Window,
  after?: Cursor,
): Promise<TxJson[]> {
  // One statement per shape, so each reads its rows on an index alone (index-only scan): the
  // primary key without a type, account_transactions_type with one; `$n IS NULL OR` would force
  // heap reads. With a cursor the page starts by an index seek (keyset), without one by OFFSET.
  // Only fixed fragments and placeholder numbers are put together here; every value is a parameter.
  const values: unknown[] = [idKey(account), w.limit, after === undefined ? w.offset : 0];
  let conditions = '';
  if (txType !== undefined) {
    values.push(txTypeCode(txType));
    conditions += ` AND a.tx_type = $${values.length}`;
  }
  if (after !== undefined) {
    values.push(after.height, after.microIndex, after.txIndex);
    conditions += ` AND (a.height, a.micro_index, a.tx_index) < ($${values.length - 2}, $${values.length - 1}, $${values.length})`;
  }
  const { rows } = await db.query<TxJson>({
    // one named statement per shape (type filter, cursor)
    name: `mdw_account_page${txType === undefined ? '' : '_typed'}${after === undefined ? '' : '_after'}`,
    text: `WITH page AS (
       SELECT a.height, a.micro_index, a.tx_index FROM account_transactions a
        WHERE a.account = ${ACCOUNT}${conditions}
        ORDER BY a.height DESC, a.micro_index DESC, a.tx_index DESC LIMIT $2 OFFSET $3)
     SELECT ${ACCOUNT_TX_JSON_COLUMNS} FROM page p
       JOIN transactions t ON t.height = p.height AND t.micro_index = p.micro_index AND t.tx_index = p.tx_index
     ${NEWEST_FIRST}`,
    values,
  });
  return renderedTxJson(rows);
}

/** ANCHOR_EVERY: every how many rows of an account's final list a position is kept. */
export const ANCHOR_EVERY = 5000;

/**
 * An account's transactions at heights up to `height` (final heights: they do not change): how
 * many, and the positions of rows number ANCHOR_EVERY, 2 × ANCHOR_EVERY, … counted from the oldest
 * (from 0), one array per position column.
 */
export interface FinalRows {
  readonly height: number;
  readonly count: number;
  readonly anchorHeights: readonly number[];
  readonly anchorMicroIndexes: readonly number[];
  readonly anchorTxIndexes: readonly number[];
}

/**
 * finalRowsOfAccount counts the account's transactions (optionally of one type) at heights at
 * least `forkWindow` below the top and takes every ANCHOR_EVERY-th position, in one pass over the
 * index; undefined while the chain is shorter than the fork window.
 */
export async function finalRowsOfAccount(
  db: Queryable,
  account: string,
  txType: string | undefined,
  forkWindow: number,
): Promise<FinalRows | undefined> {
  const top = await topHeight(db);
  if (top === undefined || top - forkWindow < 0) return undefined;
  const height = top - forkWindow;
  const typed = txType === undefined ? '' : ' AND a.tx_type = $4';
  const anchor = 'FILTER (WHERE x.i > 0 AND x.i % $3 = 0)';
  const { rows } = await db.query<{
    count: string;
    heights: number[] | null;
    micro: number[] | null;
    tx: number[] | null;
  }>({
    name: `mdw_account_final_rows${txType === undefined ? '' : '_typed'}`,
    text: `SELECT count(*) AS count, array_agg(x.height ORDER BY x.i) ${anchor} AS heights,
            array_agg(x.micro_index ORDER BY x.i) ${anchor} AS micro, array_agg(x.tx_index ORDER BY x.i) ${anchor} AS tx
       FROM (SELECT a.height, a.micro_index, a.tx_index, row_number() OVER (ORDER BY a.height, a.micro_index, a.tx_index) - 1 AS i
               FROM account_transactions a WHERE a.account = ${ACCOUNT} AND a.height <= $2${typed}) x`,
    values:
      txType === undefined
        ? [idKey(account), height, ANCHOR_EVERY]
        : [idKey(account), height, ANCHOR_EVERY, txTypeCode(txType)],
  });
  const row = rows[0]!;
  return {
    height,
    count: Number(row.count),
    anchorHeights: row.heights ?? [],
    anchorMicroIndexes: row.micro ?? [],
    anchorTxIndexes: row.tx ?? [],
  };
}

/**
 * transactionsOfAccountFromOldest returns the same page as `transactionsOfAccount` (newest first,
 * `w.offset` rows skipped from the newest), found from the oldest end: the rows above the final
 * height are counted in the same statement (same snapshot), so the total, and the position of the
 * page from the oldest end, is exact; the scan starts at the kept position just before the page,
 * so it skips fewer than ANCHOR_EVERY index entries wherever the page is.
 */
export async function transactionsOfAccountFromOldest(
  db: Queryable,
  account: string,
  txType: string | undefined,
  w: Window,
  final: FinalRows,
): Promise<TxJson[]> {
  const typed = txType === undefined ? '' : ' AND a.tx_type = $10';
  const values: unknown[] = [
    idKey(account),
    final.height,
    final.count,
    w.offset,
    w.limit,
    final.anchorHeights,
    final.anchorMicroIndexes,
    final.anchorTxIndexes,
    ANCHOR_EVERY,
  ];
  if (txType !== undefined) values.push(txTypeCode(txType));
  const { rows } = await db.query<TxJson>({
    name: `mdw_account_page_from_oldest${txType === undefined ? '' : '_typed'}`,
    // total = $3 + newer; the page is rows [skip, skip + take) counted from the oldest, skip =
    // total - offset - limit; the scan starts at kept position k = skip / $9 (row k × $9; none for
    // k = 0). The planner cannot size a LIMIT computed from a sub-select (it guesses thousands of
    // rows and hashes all of transactions): the LATERAL lookup, kept apart by OFFSET 0, is one
    // index probe per row.
    text: `WITH newer AS (SELECT count(*) AS n FROM account_transactions a WHERE a.account = ${ACCOUNT} AND a.height > $2${typed}),
     pos AS (SELECT greatest(0, $3 + n - $4 - $5) AS skip, greatest(0, least($5, $3 + n - $4)) AS take FROM newer),
     start AS (SELECT p.skip, p.take, least(p.skip / $9, cardinality($6::int[]))::int AS k FROM pos p),
     page AS (
       SELECT a.height, a.micro_index, a.tx_index FROM account_transactions a
        WHERE a.account = ${ACCOUNT}${typed}
          AND (a.height, a.micro_index, a.tx_index) >= ((SELECT coalesce(($6::int[])[k], -1) FROM start),
               (SELECT coalesce(($7::int[])[k], -1) FROM start), (SELECT coalesce(($8::int[])[k], -1) FROM start))
        ORDER BY a.height, a.micro_index, a.tx_index
        LIMIT (SELECT take FROM start) OFFSET (SELECT skip - k * $9 FROM start))
     SELECT ${ACCOUNT_TX_JSON_COLUMNS} FROM page p
       CROSS JOIN LATERAL (SELECT * FROM transactions t
        WHERE t.height = p.height AND t.micro_index = p.micro_index AND t.tx_index = p.tx_index OFFSET 0) t
     ${NEWEST_FIRST}`,
    values,
  });
  return renderedTxJson(rows);
}

/** countTransactionsOfAccount counts the transactions referencing the id (the counts migration 1015 keeps). */
export async function countTransactionsOfAccount(
  db: Queryable,
  account: string,
  txType: string | undefined,
): Promise<number> {
  const { rows } =
    txType === undefined
      ? await db.query<{ n: string }>(
          `SELECT coalesce(sum(n), 0)::text AS n FROM account_tx_counts WHERE account = ${ACCOUNT}`,
          [idKey(account)],
        )
      : await db.query<{ n: string }>(
          `SELECT coalesce(sum(n), 0)::text AS n FROM account_tx_counts WHERE account = ${ACCOUNT} AND tx_type = $2`,
          [idKey(account), txTypeCode(txType)],
        );
  return Number(rows[0]?.n ?? 0);
}

/** An id a transaction references or creates (an account_transactions row), at the transaction's position. */
export interface TxIdRow {
  readonly height: number;
  readonly microIndex: number;
  readonly txIndex: number;
  readonly account: string;
}

/** txIdsBetween lists the ids referenced by the transactions of heights from..to (unordered). */
export async function txIdsBetween(db: Queryable, from: number, to: number): Promise<TxIdRow[]> {
  const { rows } = await db.query<Omit<TxIdRow, 'account'> & { account: Buffer }>(
    `SELECT a.height, a.micro_index AS "microIndex", a.tx_index AS "txIndex", i.key AS account
       FROM account_transactions a JOIN account_ids i ON i.num = a.account WHERE a.height BETWEEN $1 AND $2`,
    [from, to],
  );
  return rows.map((r) => ({ ...r, account: idOfKey(r.account) }));
}

/** accountTypeCount counts an id's transactions whose outer type is one of `txTypes` (node type names). */
export async function accountTypeCount(db: Queryable, id: string, txTypes: readonly string[]): Promise<number> {
  const { rows } = await db.query<{ n: string }>({
    name: 'mdw_v3_account_tx_type_count',
    text: `SELECT coalesce(sum(n), 0)::text AS n FROM account_tx_counts
            WHERE account = ${accountNumberSql('$1')} AND tx_type = ANY($2::smallint[])`,
    values: [idKey(id), txTypes.map(txTypeCode)],
  });
  return Number(rows[0]?.n ?? 0);
}

/** accountFieldCounts counts an id's transactions, and per outer type the fields it appears in (from the kept counts). */
export async function accountFieldCounts(
  db: Queryable,
  id: string,
): Promise<{ total: number; byField: { txType: string; field: string; n: number }[] }> {
  const [total, byField] = await concurrently(db, [
    () =>
      db.query<{ n: string }>({
        name: 'mdw_v3_account_tx_total',
        text: `SELECT coalesce(sum(n), 0)::text AS n FROM account_tx_counts WHERE account = ${accountNumberSql('$1')}`,
        values: [idKey(id)],
      }),
    () =>
      db.query<{ txType: string; field: string; n: string }>({
        name: 'mdw_v3_account_tx_fields',
        // types are stored as codes; their names order the answer (in the database's collation, as before)
        text: `SELECT n.name AS "txType", x.f AS field, x.n
               FROM (SELECT tx_type, f, sum(n) AS n FROM account_tx_counts, unnest(string_to_array(fields, ' ')) AS f
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
