/**
 * @module rowsApart: how two schemas of one database differ, table by table, as `mdw -v --full` compares them;
 * keepAside: a copy of a schema's rows to compare it with later.
 */
import { createPool, quoteIdent } from '../../../../src/db/connection/pool.ts';
import { derivedTables, rowsOnlyIn } from '../../../../src/db/queries/derived-rows.ts';
import { silent } from './harness.ts';

/**
 * rowsApart lists, for every table of `reference` (over its heights), the rows only one of the two schemas holds: one
 * line per table and side, with the count and the first row. Empty when they are equal.
 */
export async function rowsApart(databaseUrl: string, reference: string, other: string): Promise<string[]> {
  const pool = createPool({ databaseUrl, schema: reference, max: 1 }, silent);
  try {
    const differences: string[] = [];
    for (const table of await derivedTables(pool, reference)) {
      for (const [from, to] of [
        [reference, other],
        [other, reference],
      ] as const) {
        const only = await rowsOnlyIn(pool, table, { from, other: to, heightsOf: reference }, undefined, 3);
        if (only.total > 0) differences.push(`${table.name}: ${only.total} row(s) only in ${from}: ${only.rows[0]}`);
      }
    }
    return differences;
  } finally {
    await pool.end();
  }
}

/**
 * keepAside copies every table of `schema` (partitions too, as rowsApart reads them) into schema `aside`, made anew:
 * plain tables of the rows alone (no key, trigger or default), for rowsApart to compare `schema` with once it changed.
 */
export async function keepAside(databaseUrl: string, schema: string, aside: string): Promise<void> {
  const pool = createPool({ databaseUrl, schema, max: 1 }, silent);
  try {
    const { rows } = await pool.query<{ name: string }>(
      `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = $1 AND c.relkind IN ('r', 'p') ORDER BY 1`,
      [schema],
    );
    await pool.query(`CREATE SCHEMA ${quoteIdent(aside)}`);
    for (const { name } of rows)
      await pool.query(
        `CREATE TABLE ${quoteIdent(aside)}.${quoteIdent(name)} AS TABLE ${quoteIdent(schema)}.${quoteIdent(name)}`,
      );
  } finally {
    await pool.end();
  }
}
