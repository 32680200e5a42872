/** @module A reload's (-H) progress in its target schema (reload_progress, migration 1055): one row, one writer. */
import type { Queryable } from '../pool.ts';

/** Where a reload stands: the list, its phase, the last height of the phase written, the lowest one replaced. */
export interface ReloadProgress {
  /** the list as runs, `0-5000,5010` */
  readonly heights: string;
  readonly phase: 'listed' | 'above';
  readonly doneThrough: number;
  readonly lowestReplaced: number | undefined;
}

/** reloadProgress is the progress an interrupted reload left, if any. */
export async function reloadProgress(db: Queryable): Promise<ReloadProgress | undefined> {
  const { rows } = await db.query<{
    heights: string;
    phase: 'listed' | 'above';
    done_through: number;
    lowest_replaced: number | null;
  }>('SELECT heights, phase, done_through, lowest_replaced FROM reload_progress');
  const r = rows[0];
  return r
    ? {
        heights: r.heights,
        phase: r.phase,
        doneThrough: r.done_through,
        lowestReplaced: r.lowest_replaced ?? undefined,
      }
    : undefined;
}

/** saveReloadProgress records a reload's progress (in the transaction of the batch it covers). */
export async function saveReloadProgress(db: Queryable, p: ReloadProgress): Promise<void> {
  await db.query(
    `INSERT INTO reload_progress (heights, phase, done_through, lowest_replaced) VALUES ($1, $2, $3, $4)
     ON CONFLICT (one) DO UPDATE SET heights = excluded.heights, phase = excluded.phase,
       done_through = excluded.done_through, lowest_replaced = excluded.lowest_replaced, updated_at = now()`,
    [p.heights, p.phase, p.doneThrough, p.lowestReplaced ?? null],
  );
}

/** clearReloadProgress forgets a reload's progress: it completed, or a populator has written the schema since. */
export async function clearReloadProgress(db: Queryable): Promise<void> {
  await db.query('DELETE FROM reload_progress');
}
