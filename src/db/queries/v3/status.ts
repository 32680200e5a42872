/** @module Read-side SQL for ae_mdw's /v3/status: what is stored and how far the populator got. */
import type { Queryable } from '../../pool.ts';

/** StoredTotals: the top height, the transactions stored, the last migration and the populator's view. */
export interface StoredTotals {
  readonly topHeight: number | undefined;
  readonly txCount: number;
  readonly lastMigration: string | undefined;
  readonly nodeHeight: number | undefined;
  readonly populatorStatus: string;
  readonly heartbeatAt: Date | undefined;
}

/**
 * storedTotals reads the status numbers in one statement. The transaction count sums the micro
 * blocks' counts (one narrow row per micro block, not one per transaction).
 */
export async function storedTotals(db: Queryable): Promise<StoredTotals> {
  const { rows } = await db.query<{
    top: number | null;
    txs: string | null;
    migration: string | null;
    node_height: number | null;
    status: string | null;
    heartbeat_at: Date | null;
  }>({
    name: 'mdw_v3_stored_totals',
    text: `SELECT (SELECT max(height) FROM key_blocks) AS top,
                  (SELECT sum(tx_count) FROM micro_blocks) AS txs,
                  (SELECT max(name) FROM mdw_migrations) AS migration,
                  s.node_height, s.status, s.heartbeat_at
             FROM sync_state s`,
  });
  const r = rows[0];
  return {
    topHeight: r?.top ?? undefined,
    txCount: Number(r?.txs ?? 0),
    lastMigration: r?.migration ?? undefined,
    nodeHeight: r?.node_height ?? undefined,
    populatorStatus: r?.status ?? 'idle',
    heartbeatAt: r?.heartbeat_at ?? undefined,
  };
}
