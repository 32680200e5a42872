/** @module The populator's writes of the sync_state row: its status and heartbeat, the re-derive mark, and the loaded top. */
import type { Queryable } from '../connection/pool.ts';
import { stringifyJson, type Json } from '../../chain/json.ts';

/** SyncStatus values written to sync_state.status. */
export const SyncStatus = {
  CATCHING_UP: 'catching_up',
  SYNCED: 'synced',
  NODE_UNAVAILABLE: 'node_unavailable',
  /** a failure other than the node's (the database, a bug): retried the same way */
  ERROR: 'error',
  RELOADING: 'reloading',
  STOPPED: 'stopped',
} as const;
export type SyncStatus = (typeof SyncStatus)[keyof typeof SyncStatus];

/** heartbeat records a poll: the node's height (when known), the status and the last error (null clears it). */
export async function heartbeat(
  db: Queryable,
  status: SyncStatus,
  nodeHeight: number | null,
  lastError: string | null,
): Promise<void> {
  await db.query({
    name: 'mdw_heartbeat',
    text: `UPDATE sync_state SET status = $1, node_height = COALESCE($2, node_height), last_error = $3, heartbeat_at = now()`,
    values: [status, nodeHeight, lastError],
  });
}

/**
 * markStaleAbove lowers sync_state.rederive_from to just above `top` when heights are stored above
 * it: they derived their name and oracle state without the events just written below them. Whether any is, asked of
 * the highest stored height (one probe of the key blocks' index): `EXISTS (… WHERE height > top)` was planned as a
 * scan of every key block, which while catching up (nothing above) read them all at each batch with name events.
 */
export async function markStaleAbove(db: Queryable, top: number): Promise<number | undefined> {
  const { rows } = await db.query<{ rederive_from: number }>({
    name: 'mdw_mark_stale_above',
    text: `UPDATE sync_state SET rederive_from = least(rederive_from, $1::int + 1)
      WHERE (SELECT max(height) FROM key_blocks) > $1 RETURNING rederive_from`,
    values: [top],
  });
  return rows[0]?.rederive_from;
}

/**
 * moveMark sets sync_state.rederive_from above a re-derived `top`, or clears it when nothing is stored above (the
 * highest stored height says, as in markStaleAbove).
 */
export async function moveMark(db: Queryable, top: number): Promise<number | null> {
  const { rows } = await db.query<{ rederive_from: number | null }>(
    `UPDATE sync_state SET rederive_from = CASE WHEN (SELECT max(height) FROM key_blocks) > $1 THEN $1::int + 1 END
      RETURNING rederive_from`,
    [top],
  );
  return rows[0]!.rederive_from;
}

/** recordTop sets the loaded top in sync_state (same transaction as the rows it describes). */
export async function recordTop(db: Queryable): Promise<void> {
  // named: without parameters, its one generic plan serves every batch (a statement with no name is planned each time)
  await db.query({
    name: 'mdw_record_top',
    text: `UPDATE sync_state SET (top_height, top_hash) = (SELECT height, hash FROM key_blocks ORDER BY height DESC LIMIT 1)`,
  });
}

/** recordNodeProbe keeps what the start-up probe found of the nodes (indexer/sync/node-gaps.ts probeReport). */
export async function recordNodeProbe(db: Queryable, report: { [key: string]: Json }): Promise<void> {
  await db.query('UPDATE sync_state SET node_probe = $1::jsonb', [stringifyJson(report)]);
}
