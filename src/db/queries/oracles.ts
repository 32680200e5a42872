/**
 * @module Read-side SQL for oracles from oracle_events and oracle_queries: the original's registrations, queries and
 * responses, and ae_mdw's oracle state with its queries, responses and extensions by position.
 */
import type { Json } from '../../chain/json.ts';
import type { Queryable } from '../connection/pool.ts';
import { keyset, positionKeyset, type PageReader, type TxPosition } from './positions.ts';
import { withTxObjects, type TxInBlockRow } from './stored-tx-json.ts';
import { microBlockHashSql, txTypeNameSql, type Window } from './transactions.ts';

/** An oracle registration with its current expiry (extensions included). */
export interface OracleRow {
  readonly oracleId: string;
  readonly txHash: string;
  readonly height: number;
  readonly expiresAt: number;
  readonly tx: Json;
}

/** A query with its request transaction and, when answered, its response transaction. */
export interface OracleQueryRow {
  readonly queryId: string;
  readonly request: { readonly hash: string; readonly timeMs: number; readonly tx: Json };
  readonly response: { readonly hash: string; readonly timeMs: number; readonly tx: Json } | null;
}

/**
 * oracles pages registrations, newest first; expiry is that of the oracle's latest event. The page is walked along
 * the registrations' index (migration 1074), the rows it skips read from the index alone: the transactions and the
 * expiries are read for the page's rows only.
 */
export async function oracles(db: Queryable, w: Window): Promise<OracleRow[]> {
  const { rows } = await db.query(
    `SELECT r.oracle_id, r.tx_hash, r.height, t.signed AS tx,
            (SELECT e.expires_at FROM oracle_events e WHERE e.oracle_id = r.oracle_id
              ORDER BY e.height DESC, e.micro_index DESC, e.tx_index DESC LIMIT 1) AS expires_at
       FROM (SELECT oracle_id, tx_hash, height, micro_index, tx_index FROM oracle_events
              WHERE kind = 'register'
              ORDER BY height DESC, micro_index DESC, tx_index DESC LIMIT $1 OFFSET $2) r
       JOIN transactions t ON t.hash = r.tx_hash
      ORDER BY r.height DESC, r.micro_index DESC, r.tx_index DESC`,
    [w.limit, w.offset],
  );
  return withTxObjects<{ oracle_id: string; tx_hash: string; height: number; expires_at: number; tx: Json }>(
    rows,
    'tx',
  ).map((r) => ({
    oracleId: r.oracle_id,
    txHash: r.tx_hash,
    height: r.height,
    expiresAt: r.expires_at,
    tx: r.tx,
  }));
}

/** oracleExists is true when the oracle was ever registered. */
export async function oracleExists(db: Queryable, oracleId: string): Promise<boolean> {
  const { rows } = await db.query('SELECT 1 FROM oracle_events WHERE oracle_id = $1 LIMIT 1', [oracleId]);
  return rows.length > 0;
}

/** oracleQueries pages an oracle's queries oldest first, each with its response or null (open queries too). */
export async function oracleQueries(db: Queryable, oracleId: string, w: Window): Promise<OracleQueryRow[]> {
  const { rows } = await db.query(
    `SELECT q.query_id, qt.hash AS q_hash, qt.micro_time_ms AS q_time, qt.signed AS q_tx,
            rt.hash AS r_hash, rt.micro_time_ms AS r_time, rt.signed AS r_tx
       FROM oracle_queries q
       JOIN transactions qt ON qt.hash = q.tx_hash
       LEFT JOIN oracle_responses r ON r.query_id = q.query_id
       LEFT JOIN transactions rt ON rt.hash = r.tx_hash
      WHERE q.oracle_id = $1
      ORDER BY q.height, q.micro_index, q.tx_index LIMIT $2 OFFSET $3`,
    [oracleId, w.limit, w.offset],
  );
  return withTxObjects<{
    query_id: string;
    q_hash: string;
    q_time: string;
    q_tx: Json;
    r_hash: string | null;
    r_time: string | null;
    r_tx: Json;
  }>(rows, 'q_tx', 'r_tx').map((r) => ({
    queryId: r.query_id,
    request: { hash: r.q_hash, timeMs: Number(r.q_time), tx: r.q_tx },
    response: r.r_hash == null ? null : { hash: r.r_hash, timeMs: Number(r.r_time), tx: r.r_tx },
  }));
}

/** An oracle's latest registration and its expiry after its latest event. */
export interface OracleStateRow {
  readonly oracleId: string;
  readonly expiresAt: number;
  readonly registeredAt: number;
  readonly registerTxHash: string;
  readonly registerTimeMs: string;
  readonly queryFee: string | null;
  readonly queryFormat: string | null;
  readonly responseFormat: string | null;
}

/** Oracle list key: expiry height, then the id. */
export interface OracleKey {
  readonly expiresAt: number;
  readonly oracleId: string;
}

// An oracle's state: `o`'s oracle_id and expires_at (its latest event's) with its latest registration `r`
// (LATEST_REGISTRATION).
const ORACLE_STATE_COLUMNS = `o.oracle_id AS "oracleId", o.expires_at AS "expiresAt",
    r.height AS "registeredAt", r.tx_hash AS "registerTxHash", t.micro_time_ms::text AS "registerTimeMs",
    r.query_fee::text AS "queryFee", r.query_format AS "queryFormat", r.response_format AS "responseFormat"`;

// The latest registration of the oracle `o.oracle_id` (by primary key order) and its transaction.
const LATEST_REGISTRATION = `CROSS JOIN LATERAL (SELECT e.* FROM oracle_events e WHERE e.oracle_id = o.oracle_id AND e.kind = 'register'
                       ORDER BY e.height DESC, e.micro_index DESC, e.tx_index DESC LIMIT 1) r
  JOIN transactions t ON t.hash = r.tx_hash`;

/**
 * oraclesPage reads up to n oracles (active: expiry above the top; inactive: at or below) walking from a key: along
 * the kept expiries (migration 1069, registered oracles only) in the walk's order, then each oracle of the page with
 * its latest registration: a page reads its own oracles and never every oracle's state.
 */
export const oraclesPage: PageReader<
  { state?: 'active' | 'inactive'; top: number; first?: number; last?: number },
  OracleKey,
  OracleStateRow
> = async (db, filter, { walk, from, n }) => {
  const values: unknown[] = [filter.top, n, filter.first ?? 0, filter.last ?? 2 ** 31 - 1];
  if (from) values.push(from.expiresAt, from.oracleId);
  const ks = keyset(['o.expires_at', 'o.oracle_id'], walk, from ? '$5::int, $6::text' : undefined);
  const state =
    filter.state === 'active'
      ? 'o.expires_at > $1::int'
      : filter.state === 'inactive'
        ? 'o.expires_at <= $1::int'
        : '$1::int IS NOT NULL';
  const { rows } = await db.query<OracleStateRow>(
    `SELECT ${ORACLE_STATE_COLUMNS}
       FROM (SELECT o.oracle_id, o.expires_at FROM oracle_expiries o
              WHERE ${state} AND o.expires_at BETWEEN $3 AND $4 AND ${ks.where}
              ORDER BY ${ks.order} LIMIT $2) o
       ${LATEST_REGISTRATION}
      ORDER BY ${ks.order}`,
    values,
  );
  return rows;
};

/** oracleState reads one oracle: its latest event's expiry and its latest registration. */
export async function oracleState(db: Queryable, oracleId: string): Promise<OracleStateRow | undefined> {
  const { rows } = await db.query<OracleStateRow>(
    `SELECT ${ORACLE_STATE_COLUMNS}
       FROM (SELECT e.oracle_id, e.expires_at FROM oracle_events e WHERE e.oracle_id = $1
              ORDER BY e.height DESC, e.micro_index DESC, e.tx_index DESC LIMIT 1) o
       ${LATEST_REGISTRATION}`,
    [oracleId],
  );
  return rows[0];
}

/** A query, response or extension with its transaction and block. */
export interface OracleTxRow extends TxInBlockRow {
  readonly queryId: string | null;
}

const TX_COLUMNS = `t.height, t.micro_index AS "microIndex", t.tx_index AS "txIndex", ${microBlockHashSql('t')} AS "blockHash",
  t.micro_time_ms::text AS "blockTime", t.hash AS "txHash", ${txTypeNameSql('t')} AS "txType", t.signed AS tx`;

/** Which of an oracle's transactions: its queries, its responses or its extensions. */
export interface OracleTxFilter {
  readonly oracleId: string;
  readonly kind: 'queries' | 'responses' | 'extends';
}

/** oracleTxsPage reads an oracle's queries, responses or extensions walking from a position (inclusive). */
export const oracleTxsPage: PageReader<OracleTxFilter, TxPosition, OracleTxRow> = async (db, filter, window) => {
  const source = {
    queries: `SELECT q.height, q.micro_index, q.tx_index, q.query_id FROM oracle_queries q WHERE q.oracle_id = $1`,
    responses: `SELECT r.height, r.micro_index, r.tx_index, r.query_id FROM oracle_responses r
                  JOIN oracle_queries q ON q.query_id = r.query_id WHERE q.oracle_id = $1`,
    extends: `SELECT e.height, e.micro_index, e.tx_index, NULL::text AS query_id FROM oracle_events e
                WHERE e.oracle_id = $1 AND e.kind = 'extend'`,
  }[filter.kind];
  const ks = positionKeyset('x', window, 3);
  const { rows } = await db.query(
    `SELECT ${TX_COLUMNS}, x.query_id AS "queryId" FROM (${source}) x
       JOIN transactions t ON t.height = x.height AND t.micro_index = x.micro_index AND t.tx_index = x.tx_index
      WHERE ${ks.where} ORDER BY ${ks.order.replaceAll('x.', 't.')} LIMIT $2`,
    [filter.oracleId, window.n, ...ks.values],
  );
  return withTxObjects<OracleTxRow>(rows, 'tx');
};

/**
 * oracleTxsByQueryIds reads the queries or the responses of these query ids (primary-key lookups, one statement):
 * a list of queries shows each one's response, a list of responses each one's query.
 */
export async function oracleTxsByQueryIds(
  db: Queryable,
  kind: 'queries' | 'responses',
  queryIds: readonly string[],
): Promise<Map<string, OracleTxRow>> {
  if (queryIds.length === 0) return new Map();
  const source = {
    queries: `SELECT query_id, height, micro_index, tx_index FROM oracle_queries WHERE query_id = ANY($1::text[])`,
    responses: `SELECT query_id, height, micro_index, tx_index FROM oracle_responses WHERE query_id = ANY($1::text[])`,
  }[kind];
  const { rows } = await db.query(
    `SELECT ${TX_COLUMNS}, x.query_id AS "queryId" FROM (${source}) x
       JOIN transactions t ON t.height = x.height AND t.micro_index = x.micro_index AND t.tx_index = x.tx_index`,
    [queryIds],
  );
  return new Map(withTxObjects<OracleTxRow>(rows, 'tx').map((r) => [r.queryId!, r]));
}
