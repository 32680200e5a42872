/**
 * @module How a query tests account_transactions' `fields`, the space-separated names of the fields an id appears in
 * (migration 1000). Pure.
 */

/** Characters of a field name that a regular expression would read as operators. */
const REGEX_SPECIAL = /[.\\^$|?*+()[\]{}]/g;

/**
 * fieldsPattern is the regular expression (PostgreSQL's) that matches a `fields` text naming any of `fields`. A match on
 * the column itself, rather than on its split array, lets the planner estimate it from the column's statistics (its
 * few distinct values): on the split array it guessed 0.5 % and walked a heavy account's rows by a bitmap and a sort.
 */
export function fieldsPattern(fields: readonly string[]): string {
  return `(^| )(${fields.map((f) => f.replace(REGEX_SPECIAL, '\\$&')).join('|')})( |$)`;
}
