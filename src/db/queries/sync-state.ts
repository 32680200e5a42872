/** @module The sync_state row: progress, heartbeat and last error (read by /middleware/status), and the re-derive mark. */
import type { Queryable } from '../pool.ts';

/**
 * missingHeights lists heights in [from, to] that have no key block, ascending, at most `limit`.
 * It reads the stored heights of the range (none while catching up) rather than probing each height.
 */
export async function missingHeights(db: Queryable, from: number, to: number, limit: number): Promise<number[]> {
  if (to < from) return [];
  const { rows } = await db.query<{ height: number }>('SELECT height FROM key_blocks WHERE height BETWEEN $1 AND $2', [
    from,
    to,
  ]);
  const stored = new Set(rows.map((r) => r.height));
  const missing: number[] = [];
  for (let h = from; h <= to && missing.length < limit; h++) if (!stored.has(h)) missing.push(h);
  return missing;
}

/** lowestMissing is the first height without a key block (0 on an empty database). */
export async function lowestMissing(db: Queryable): Promise<number> {
  const { rows } = await db.query<{ h: number }>(
    `SELECT CASE WHEN NOT EXISTS (SELECT 1 FROM key_blocks WHERE height = 0) THEN 0
            ELSE (SELECT min(k.height) + 1 FROM key_blocks k
                   WHERE NOT EXISTS (SELECT 1 FROM key_blocks n WHERE n.height = k.height + 1)) END AS h`,
  );
  return rows[0]!.h;
}

/** rederiveMark is sync_state.rederive_from: where stored heights stop deriving from the whole chain below (see migration 0005). */
export async function rederiveMark(db: Queryable): Promise<number | undefined> {
  const { rows } = await db.query<{ rederive_from: number | null }>('SELECT rederive_from FROM sync_state');
  return rows[0]?.rederive_from ?? undefined;
}
