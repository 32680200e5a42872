/**
 * @module What a migration file asks of the migrator, pure: whether it runs in the migrator's transaction (the default)
 * or outside any (`-- mdw:no-transaction`, for `CREATE INDEX CONCURRENTLY`, which PostgreSQL refuses inside one), its
 * statements one by one for the latter, and the runs in which pending files are applied.
 */
import { AppError, ErrorCode } from '../../base/errors.ts';

/** The line that takes a migration out of the migrator's transaction (docs/operations.md, "Migrations of a large table"). */
export const NO_TRANSACTION = '-- mdw:no-transaction';

/** isNoTransaction is true for a file holding the NO_TRANSACTION line. */
export function isNoTransaction(sql: string): boolean {
  return sql.split('\n').some((line) => line.trimEnd() === NO_TRANSACTION);
}

/**
 * statementsOf splits a file run outside a transaction into its statements, each ending with `;` at the end of a line:
 * PostgreSQL runs a string of several statements as one implicit transaction, where CONCURRENTLY is refused. Comment
 * lines are dropped. Dollar quoting (a function body, whose lines end with `;` too) is refused: such a file is split
 * wrongly, and a function belongs in a migration that runs in the transaction.
 */
export function statementsOf(name: string, sql: string): string[] {
  if (sql.includes('$$'))
    throw new AppError(
      ErrorCode.DB_MIGRATION_REFUSED,
      500,
      `migration ${name} runs outside a transaction (${NO_TRANSACTION}) and uses dollar quoting, which its ` +
        'statements cannot be split by: move the function into a migration of its own that runs in the transaction',
    );
  const statements: string[] = [];
  let current: string[] = [];
  for (const line of sql.split('\n')) {
    if (/^\s*--/.test(line) || line.trim() === '') continue;
    current.push(line);
    if (line.trimEnd().endsWith(';')) {
      statements.push(current.join('\n'));
      current = [];
    }
  }
  if (current.length > 0) statements.push(current.join('\n'));
  return statements;
}

/**
 * nextRun is the pending files applied next: the leading ones that run in a transaction, together (all or nothing),
 * or the leading one that runs outside, alone. Empty when nothing is pending.
 */
export function nextRun(
  pending: readonly string[],
  noTransaction: ReadonlySet<string>,
): { names: string[]; inTransaction: boolean } {
  const first = pending[0];
  if (first === undefined) return { names: [], inTransaction: true };
  if (noTransaction.has(first)) return { names: [first], inTransaction: false };
  const end = pending.findIndex((name) => noTransaction.has(name));
  return { names: pending.slice(0, end < 0 ? pending.length : end), inTransaction: true };
}
