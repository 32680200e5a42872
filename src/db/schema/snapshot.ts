/**
 * @module SQL of `mdw snapshot` (docs/operations.md, "Starting from a snapshot"): a schema's tables and sequences read in
 * one REPEATABLE READ transaction, and restored into a schema migrated to the snapshot's level, in one transaction:
 * triggers off (the kept counts and derived rows come with the snapshot, as they were), plain indexes built after the
 * rows, so an interrupted import leaves the schema as empty as it found it.
 */
import type { Readable } from 'node:stream';
import type { PoolClient, Queryable } from '../connection/pool.ts';
import { inTransaction, quoteIdent } from '../connection/pool.ts';
import { copyFrom, copyOut } from './snapshot-copy.ts';

/** A table of the schema: its name and its columns in their order. */
export interface SnapshotTable {
  readonly name: string;
  readonly columns: readonly string[];
}

/** A sequence's state: the value nextval hands out after (`called`) or as its next. */
export interface SequenceState {
  readonly name: string;
  /** bigint as text */
  readonly value: string;
  readonly called: boolean;
}

/** schemaTables lists `schema`'s tables (but `excluded`) with their columns, by name. */
export async function schemaTables(
  db: Queryable,
  schema: string,
  excluded: readonly string[],
): Promise<SnapshotTable[]> {
  const { rows } = await db.query<{ name: string; columns: string[] }>(
    `SELECT c.relname AS name, array_agg(a.attname::text ORDER BY a.attnum) AS columns
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
       JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
      WHERE n.nspname = $1 AND c.relkind = 'r' AND c.relname <> ALL($2::text[])
      GROUP BY c.relname ORDER BY c.relname`,
    [schema, excluded],
  );
  return rows;
}

/** relationCount is how many tables, views and sequences `schema` holds (0 when it does not exist). */
export async function relationCount(db: Queryable, schema: string): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = $1 AND c.relkind IN ('r', 'p', 'v', 'm', 'S', 'f')`,
    [schema],
  );
  return rows[0]!.n;
}

/**
 * lockForSnapshot takes ACCESS SHARE on the tables, as their COPY would one by one: a DDL statement (a migration)
 * waits for the snapshot's end instead of changing a table not copied yet. The populator's writes are not held.
 */
export async function lockForSnapshot(db: Queryable, schema: string, tables: readonly SnapshotTable[]): Promise<void> {
  if (tables.length === 0) return;
  const names = tables.map((t) => `${quoteIdent(schema)}.${quoteIdent(t.name)}`).join(', ');
  await db.query(`LOCK TABLE ${names} IN ACCESS SHARE MODE`);
}

/**
 * schemaSequences reads `schema`'s sequences but those owned by a column of an `excluded` table. A sequence is outside
 * transactions: read after the snapshot began, it is at least where the snapshot's rows took it (an import may skip
 * numbers the writer took since, never hand one out twice).
 */
export async function schemaSequences(
  db: Queryable,
  schema: string,
  excluded: readonly string[],
): Promise<SequenceState[]> {
  const { rows: names } = await db.query<{ name: string }>(
    `SELECT s.relname AS name FROM pg_class s JOIN pg_namespace n ON n.oid = s.relnamespace
      WHERE n.nspname = $1 AND s.relkind = 'S'
        AND NOT EXISTS (SELECT 1 FROM pg_depend d JOIN pg_class t ON t.oid = d.refobjid
                         WHERE d.objid = s.oid AND d.deptype IN ('a', 'i') AND t.relname = ANY($2::text[]))
      ORDER BY 1`,
    [schema, excluded],
  );
  const out: SequenceState[] = [];
  for (const { name } of names) {
    const { rows } = await db.query<{ value: string; called: boolean }>(
      `SELECT last_value::text AS value, is_called AS called FROM ${quoteIdent(schema)}.${quoteIdent(name)}`,
    );
    out.push({ name, ...rows[0]! });
  }
  return out;
}

/** copyTableOut streams one table's rows in COPY's text format, its columns in `table.columns`' order. */
export function copyTableOut(
  client: PoolClient,
  schema: string,
  table: SnapshotTable,
): { stream: Readable; rows: () => number } {
  return copyOut(client, `COPY ${qualified(schema, table)} TO STDOUT`);
}

/** A table to restore: its columns as the snapshot holds them, and its rows (COPY's text format) when asked. */
export interface RestoredTable extends SnapshotTable {
  readonly open: () => Readable;
}

/**
 * restoreTables fills `schema`'s `tables` (migrated to the snapshot's level, so their columns are the snapshot's) with
 * the rows each `open()` gives, replacing what the migrations seeded, in one transaction on `client`: user triggers off
 * while the rows go in (the kept counts and derived rows are restored, not derived again), plain indexes dropped
 * before and built after (one sort each, not an insert per row), sequences set, and the schema's owner and the
 * populator's last status left out (the importing Middleware's own start records them). `onTable` hears each table's
 * rows as the server counted them, inside the transaction: what it throws rolls the restore back.
 */
export async function restoreTables(
  client: PoolClient,
  schema: string,
  tables: readonly RestoredTable[],
  sequences: readonly SequenceState[],
  onTable: (table: string, rows: number) => void,
): Promise<void> {
  await inTransaction(client, async () => {
    // index builds of the largest tables sort in memory rather than in temporary files
    await client.query("SET LOCAL maintenance_work_mem = '256MB'");
    const names = tables.map((t) => `${quoteIdent(schema)}.${quoteIdent(t.name)}`);
    const { rows: indexes } = await client.query<{ name: string; def: string }>(
      `SELECT format('%I.%I', n.nspname, i.relname) AS name, pg_get_indexdef(x.indexrelid) AS def
         FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_namespace n ON n.oid = i.relnamespace
        WHERE x.indrelid = ANY($1::regclass[])
          AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = x.indexrelid)`,
      [names],
    );
    for (const name of names) await client.query(`ALTER TABLE ${name} DISABLE TRIGGER USER`);
    for (const index of indexes) await client.query(`DROP INDEX ${index.name}`);
    if (names.length > 0) await client.query(`TRUNCATE ${names.join(', ')}`);
    for (const table of tables) {
      // FREEZE: the rows go in frozen, as the table was emptied in this transaction (no later rewrite by VACUUM)
      const rows = await copyFrom(client, `COPY ${qualified(schema, table)} FROM STDIN WITH (FREEZE)`, table.open());
      onTable(table.name, rows);
    }
    for (const index of indexes) await client.query(index.def);
    for (const name of names) await client.query(`ALTER TABLE ${name} ENABLE TRIGGER USER`);
    for (const s of sequences)
      await client.query('SELECT setval($1::regclass, $2::bigint, $3)', [
        `${quoteIdent(schema)}.${quoteIdent(s.name)}`,
        s.value,
        s.called,
      ]);
    await client.query(`UPDATE ${quoteIdent(schema)}.schema_identity SET owner_uid = NULL, owner_name = NULL`);
    await client.query(
      `UPDATE ${quoteIdent(schema)}.sync_state SET status = 'idle', heartbeat_at = NULL, last_error = NULL`,
    );
  });
  // the planner's statistics, which a restore leaves empty (autovacuum would take its time)
  for (const table of tables) await client.query(`ANALYZE ${quoteIdent(schema)}.${quoteIdent(table.name)}`);
}

/** qualified is `schema.table (columns)`, as a COPY names them. */
function qualified(schema: string, table: SnapshotTable): string {
  return `${quoteIdent(schema)}.${quoteIdent(table.name)} (${table.columns.map(quoteIdent).join(', ')})`;
}
