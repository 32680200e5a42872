/** @module rowsApart: how two schemas of one database differ, table by table, as `mdw -v --full` compares them. */
import { createPool } from '../../../../src/db/connection/pool.ts';
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
