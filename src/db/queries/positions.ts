/** @module Keyset walks in SQL: the comparison and order of a position (one column or a row of columns) for a direction. */

/** Direction of a walk over a list. */
export type Walk = 'forward' | 'backward';

/**
 * keyset returns the condition "at or after `start`" of a walk over the columns (true without a
 * start) and its ORDER BY. `start` is SQL of placeholders (`$4` or `$4, $5, $6`); only column names
 * of the caller and placeholders are put together here, every value is a parameter.
 */
export function keyset(
  columns: readonly string[],
  walk: Walk,
  start: string | undefined,
): { where: string; order: string } {
  const order = columns.map((c) => `${c} ${walk === 'forward' ? 'ASC' : 'DESC'}`).join(', ');
  if (start === undefined) return { where: 'true', order };
  return { where: `(${columns.join(', ')}) ${walk === 'forward' ? '>=' : '<='} (${start})`, order };
}
