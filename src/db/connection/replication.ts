/** @module WAL positions of a primary and its streaming replicas (read replicas, docs/operations.md). */
import { parseLsn, recordEnd } from './lsn.ts';
import { withSnapshot, type Pool, type PoolClient, type Queryable } from './pool.ts';

/**
 * walEnd is the end of the last record the primary has written. Read after a notification arrived, it is at or past
 * that transaction's commit record: PostgreSQL delivers a NOTIFY only once its transaction is marked committed, after
 * the commit record was inserted (the insert position, not the write position: with synchronous_commit off the
 * commit record may not be written yet).
 */
export async function walEnd(db: Queryable): Promise<bigint> {
  const { rows } = await db.query<{ lsn: string }>('SELECT pg_current_wal_insert_lsn()::text AS lsn');
  const lsn = parseLsn(rows[0]?.lsn);
  if (lsn === undefined) throw new Error(`unexpected WAL position ${JSON.stringify(rows[0]?.lsn)}`);
  return recordEnd(lsn);
}

/** ReplayPosition is a standby's state: how far it has replayed, and whether it still replays (not promoted). */
export interface ReplayPosition {
  /** undefined on a server that is no standby and never was (a primary given as a read URL) */
  readonly replayed: bigint | undefined;
  readonly inRecovery: boolean;
}

/** replayPosition reads how far a standby has replayed its primary's WAL. */
export async function replayPosition(db: Queryable): Promise<ReplayPosition> {
  const { rows } = await db.query<{ lsn: string | null; recovery: boolean }>(
    'SELECT pg_last_wal_replay_lsn()::text AS lsn, pg_is_in_recovery() AS recovery',
  );
  return { replayed: parseLsn(rows[0]?.lsn), inRecovery: rows[0]?.recovery ?? false };
}

/** Replayed is what a read found, with how far the standby it ran on had replayed. */
export interface Replayed<T> {
  readonly value: T;
  /** at or past every commit the read saw; undefined on a primary */
  readonly replayed: bigint | undefined;
}

/**
 * readReplayed runs `read` in one snapshot, then reads the standby's replay position: a read replica at the server's
 * floor may have replayed commits beyond it, and what the read saw there is readable on every replica only once the
 * floor is at that position (db/connection/read-replicas.ts raiseFloor).
 */
export function readReplayed<T>(pool: Pool, read: (db: PoolClient) => Promise<T>): Promise<Replayed<T>> {
  return withSnapshot(pool, async (db) => {
    const value = await read(db);
    // read last: every commit the snapshot shows was replayed by then (a replayed commit is visible a moment before
    // the standby's position moves past its record; that moment is over once the read above is done)
    const { replayed } = await replayPosition(db);
    return { value, replayed };
  });
}
