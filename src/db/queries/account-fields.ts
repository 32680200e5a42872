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

/**
 * The fields an id sends or receives in, the transaction's own or the one a GAMetaTx or PayingForTx wraps: the ends of
 * account_pairs' rows (migration 1077), and `sender_id` and `recipient_id` of ae_mdw's transaction queries.
 */
export const PAIR_FIELDS = {
  sender: ['sender_id', 'tx.sender_id'],
  recipient: ['recipient_id', 'tx.recipient_id'],
} as const;
export const SENDER_FIELDS = fieldsPattern(PAIR_FIELDS.sender);
export const RECIPIENT_FIELDS = fieldsPattern(PAIR_FIELDS.recipient);

/** sqlLiteral is a pattern as an SQL string literal, for a statement that takes no parameter for it. */
export const sqlLiteral = (text: string): string => `'${text.replaceAll("'", "''")}'`;
