/** @module Read-side SQL for chain statistics: sizes, fees, and the populator's sync state. */
import { pendingBackfills, type PendingBackfill } from '../writes/derive-backfill.ts';
import type { Queryable } from '../pool.ts';
import { topKeyBlock } from './blocks.ts';

/** The populator's one sync_state row, with the newest stored block's time. */
export interface SyncState {
  readonly topHeight: number | undefined;
  readonly topTimeMs: number | undefined;
  readonly nodeHeight: number | undefined;
  readonly heartbeatAt: Date | undefined;
  readonly status: string;
  readonly lastError: string | undefined;
  /** derived areas behind the stored heights (derive_backfill): being derived from the stored rows, or failing */
  readonly derivations?: readonly PendingBackfill[];
}

/** syncState reads the populator's progress and the newest stored key block. */
export async function syncState(db: Queryable): Promise<SyncState> {
  const top = await topKeyBlock(db);
  const { rows } = await db.query('SELECT node_height, heartbeat_at, status, last_error FROM sync_state');
  const r = rows[0] as Record<string, unknown> | undefined;
  return {
    topHeight: top?.height,
    topTimeMs: top?.timeMs,
    nodeHeight: (r?.node_height as number | null) ?? undefined,
    heartbeatAt: (r?.heartbeat_at as Date | null) ?? undefined,
    status: (r?.status as string | undefined) ?? 'idle',
    lastError: (r?.last_error as string | null) ?? undefined,
    derivations: await pendingBackfills(db),
  };
}

/**
 * storedHeights is the top stored height and how many heights are stored (one index-only pass over
 * key_blocks' primary key): every height from 0 to the top is stored when `count = top + 1`.
 */
export async function storedHeights(db: Queryable): Promise<{ top: number | undefined; count: number }> {
  const { rows } = await db.query<{ top: number | null; count: string }>(
    'SELECT max(height) AS top, count(*) AS count FROM key_blocks',
  );
  return { top: rows[0]?.top ?? undefined, count: Number(rows[0]?.count ?? 0) };
}

/** countTransactionsIn counts the stored transactions with `above < height <= upTo` (on the (height, …) index). */
export async function countTransactionsIn(db: Queryable, above: number, upTo: number): Promise<number> {
  const { rows } = await db.query<{ n: string }>(
    'SELECT count(*) AS n FROM transactions WHERE height > $1 AND height <= $2',
    [above, upTo],
  );
  return Number(rows[0]?.n ?? 0);
}

/** sizeUpTo sums the byte size of every transaction at or below a height. */
export async function sizeUpTo(db: Queryable, height: number): Promise<number> {
  const { rows } = await db.query<{ size: string | null }>(
    'SELECT sum(size) AS size FROM transactions WHERE height <= $1',
    [height],
  );
  return Number(rows[0]?.size ?? 0);
}

/** feesAt sums the fees of the transactions of one generation, as an exact decimal string. */
export async function feesAt(db: Queryable, height: number): Promise<string> {
  const { rows } = await db.query<{ fees: string }>(
    'SELECT coalesce(sum(fee), 0)::text AS fees FROM transactions WHERE height = $1',
    [height],
  );
  return rows[0]?.fees ?? '0';
}

/**
 * decodeErrorsSince counts contract calls above a height whose decoding failed. It walks the
 * transactions of those heights (indexed by height), never the whole contract_calls table.
 */
export async function decodeErrorsSince(db: Queryable, height: number): Promise<number> {
  const { rows } = await db.query<{ n: string }>(
    `SELECT count(*) AS n FROM transactions t JOIN contract_calls c ON c.tx_hash = t.hash
      WHERE t.height > $1 AND c.decode_error IS NOT NULL`,
    [height],
  );
  return Number(rows[0]?.n ?? 0);
}

/** ping checks that the database answers. */
export async function ping(db: Queryable): Promise<void> {
  await db.query('SELECT 1');
}
