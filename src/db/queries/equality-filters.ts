/** @module The optional `column = value` filters of a list's statement: only those a request gives are in it. Pure. */

/** A filter: the column it compares, and the value asked for (undefined: not asked). */
export type EqualityFilter = readonly [column: string, value: string | undefined];

/**
 * equalityFilters adds `column = $n` to `where`, and its value to `values`, for each filter given, and returns the
 * filters' shape, a digit each (1: given): it names the statement's prepared plan, one per combination, each with its
 * index.
 */
export function equalityFilters(values: unknown[], where: string[], filters: readonly EqualityFilter[]): string {
  for (const [column, value] of filters) {
    if (value === undefined) continue;
    values.push(value);
    where.push(`${column} = $${values.length}`);
  }
  return filters.map(([, value]) => (value === undefined ? '0' : '1')).join('');
}
