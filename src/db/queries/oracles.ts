/** @module Read-side SQL for oracles, their queries and responses. */
import type { Json } from '../../chain/json.ts';
import type { Queryable } from '../pool.ts';
import type { Window } from './transactions.ts';
import { withTxObjects } from './stored-tx-json.ts';

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

/** oracles pages registrations, newest first; expiry is that of the oracle's latest event. */
export async function oracles(db: Queryable, w: Window): Promise<OracleRow[]> {
  const { rows } = await db.query(
    `SELECT r.oracle_id, r.tx_hash, r.height, t.signed AS tx,
            (SELECT e.expires_at FROM oracle_events e WHERE e.oracle_id = r.oracle_id
              ORDER BY e.height DESC, e.micro_index DESC, e.tx_index DESC LIMIT 1) AS expires_at
       FROM oracle_events r JOIN transactions t ON t.hash = r.tx_hash
      WHERE r.kind = 'register'
      ORDER BY r.height DESC, r.micro_index DESC, r.tx_index DESC LIMIT $1 OFFSET $2`,
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
