/** @module Read-side SQL of the reorg log (migrations/1028_reorgs.sql): the forks a websocket server has not told yet. */
import type { Queryable } from '../connection/pool.ts';

/** A logged reorg: the blocks one populator transaction dropped, and the top it left. */
export interface Reorg {
  /** its place in commit order */
  readonly seq: number;
  /** the lowest height whose blocks were dropped */
  readonly fromHeight: number;
  /** the dropped key and micro block hashes, in chain order */
  readonly dropped: readonly string[];
  /** the stored top after it (undefined when nothing was left) */
  readonly top?: { readonly height: number; readonly hash: string };
}

/** reorgsAfter lists the logged reorgs numbered above `seq`, in commit order. */
export async function reorgsAfter(db: Queryable, seq: number): Promise<Reorg[]> {
  const { rows } = await db.query<{
    seq: string;
    from_height: number;
    dropped: string[];
    top_height: number | null;
    top_hash: string | null;
  }>('SELECT seq, from_height, dropped, top_height, top_hash FROM reorgs WHERE seq > $1 ORDER BY seq', [seq]);
  return rows.map((r) => ({
    seq: Number(r.seq),
    fromHeight: r.from_height,
    dropped: r.dropped,
    ...(r.top_height === null || r.top_hash === null ? {} : { top: { height: r.top_height, hash: r.top_hash } }),
  }));
}

/** lastReorgSeq is the number of the last logged reorg (0 when none was). */
export async function lastReorgSeq(db: Queryable): Promise<number> {
  const { rows } = await db.query<{ seq: string | null }>('SELECT max(seq) AS seq FROM reorgs');
  return Number(rows[0]!.seq ?? 0);
}
