/**
 * @module The writer's bulk statements: one multi-row INSERT of column-wise arrays (keeping the
 * first row of a repeated key), or one COPY … FROM STDIN of prepared text payloads. Table and
 * column names are constants (indexer/tables.ts), never input.
 */
import { copyFrom } from '../schema/snapshot-copy.ts';
import { quoteIdent, type Queryable } from '../connection/pool.ts';
import { StatementNames } from '../connection/statement-names.ts';
import { arrayParameter } from '../connection/array-text.ts';

/**
 * The inserts' names: one text a table and its columns, prepared once a connection (the populator inserts into about
 * twenty tables so), where unnamed they were parsed and planned again at every batch.
 */
const INSERT_NAMES = new StatementNames('mdw_insert_many', 64);

/** insertMany inserts column-wise arrays with one statement, keeping the first row of a repeated key. */
export async function insertMany(
  db: Queryable,
  table: string,
  columns: readonly (readonly [string, string])[],
  values: unknown[][],
): Promise<void> {
  if (values[0]!.length === 0) return;
  const names = columns.map(([n]) => quoteIdent(n)).join(', ');
  // text[] values travel as space-joined text: signatures and field names never contain spaces
  const sources = columns.map(([, t], i) => (t === 'text[]' ? `string_to_array(c${i}, ' ')` : `c${i}`)).join(', ');
  const unnest = columns.map(([, t], i) => `$${i + 1}::${t === 'text[]' ? 'text' : t}[]`).join(', ');
  const aliases = columns.map((_, i) => `c${i}`).join(', ');
  const text = `INSERT INTO ${quoteIdent(table)} (${names}) SELECT ${sources} FROM unnest(${unnest}) AS u(${aliases}) ON CONFLICT DO NOTHING`;
  await db.query({ name: INSERT_NAMES.nameOf(text), text, values: values.map(arrayParameter) });
}

/**
 * copyMany loads COPY text payloads (writes/copy-in.ts `CopyPayloads`) into the named columns, PostgreSQL's bulk path:
 * on one client (not a pool), through the COPY FROM a snapshot's import streams its tables with, in one write.
 */
export async function copyMany(
  db: Queryable,
  table: string,
  columns: readonly string[],
  chunks: readonly Buffer[],
): Promise<void> {
  if (chunks.length === 0) return;
  await copyFrom(
    db,
    `COPY ${quoteIdent(table)} (${columns.map((name) => quoteIdent(name)).join(', ')}) FROM STDIN`,
    chunks,
  );
}
