/**
 * @module The deletes of whole heights: a fork undone, or heights to reload (key_blocks' delete trigger removes what
 * belongs to them); and the range of heights the derived areas' writes take.
 */
import type { Queryable } from '../connection/pool.ts';

/** deleteFrom removes every height ≥ `height` (key_blocks' delete trigger removes everything that belongs to them). */
export async function deleteFrom(db: Queryable, height: number): Promise<number> {
  const { rowCount } = await db.query('DELETE FROM key_blocks WHERE height >= $1', [height]);
  return rowCount ?? 0;
}

/** deleteHeights removes exactly the listed heights. */
export async function deleteHeights(db: Queryable, heights: readonly number[]): Promise<number> {
  const { rowCount } = await db.query('DELETE FROM key_blocks WHERE height = ANY($1::int[])', [heights]);
  return rowCount ?? 0;
}
