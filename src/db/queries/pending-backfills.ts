/**
 * @module The derived areas some stored heights still lack (derive_backfill, migration 1003), as the statuses, `-v`
 * and the populator's backfill read them; the writes that re-derive an area are db/writes/derive-backfill.ts.
 */
import type { Queryable } from '../connection/pool.ts';

/** A derived area's pending work: stored heights next..to still lack its rows; `error` while it fails. */
export interface PendingBackfill {
  readonly area: string;
  readonly next: number;
  readonly to: number;
  readonly failingSince?: Date;
  readonly error?: string;
}

/** pendingBackfills lists the areas still to derive (in no order: the caller knows which feeds which). */
export async function pendingBackfills(db: Queryable): Promise<PendingBackfill[]> {
  const { rows } = await db.query<{
    area: string;
    next_height: number;
    to_height: number;
    failing_since: Date | null;
    last_error: string | null;
  }>({
    // named: the derive backfill asks it at every step of a catch-up, and a statement with no name is planned each time
    name: 'mdw_pending_backfills',
    text: 'SELECT area, next_height, to_height, failing_since, last_error FROM derive_backfill ORDER BY area',
  });
  return rows.map((r) => ({
    area: r.area,
    next: r.next_height,
    to: r.to_height,
    ...(r.failing_since ? { failingSince: r.failing_since, error: r.last_error ?? '' } : {}),
  }));
}
