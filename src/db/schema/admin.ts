/** @module Administration outside the migrations: create a database and drop old chains' schemas (`mdw dev`), drop a schema (`mdw migrate --drop`). */
import pg from 'pg';
import { quoteIdent } from '../connection/pool.ts';

/** withClient runs fn on one short-lived connection (no pool, no schema), closing it afterwards. */
async function withClient<T>(connectionString: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** ensureDatabase creates the database `name` on the server at `serverUrl` (its `postgres` database) unless it exists. */
export async function ensureDatabase(serverUrl: string, name: string): Promise<void> {
  await withClient(`${serverUrl}/postgres`, async (admin) => {
    const { rowCount } = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (!rowCount) await admin.query(`CREATE DATABASE ${quoteIdent(name)}`);
  });
}

/** dropSchema is idempotent: dropping a schema that is already gone succeeds. */
export async function dropSchema(databaseUrl: string, schema: string): Promise<void> {
  await withClient(databaseUrl, async (client) => {
    await client.query(`DROP SCHEMA IF EXISTS ${quoteIdent(schema)} CASCADE`);
  });
}

/**
 * dropSchemasExcept drops every schema whose name starts with `prefix` but `keep`, returning their names: the schemas
 * of `mdw dev`'s earlier devnode chains, which no node serves any more.
 */
export async function dropSchemasExcept(databaseUrl: string, prefix: string, keep: string): Promise<string[]> {
  return withClient(databaseUrl, async (client) => {
    const { rows } = await client.query<{ name: string }>(
      `SELECT nspname AS name FROM pg_namespace WHERE starts_with(nspname, $1) AND nspname <> $2 ORDER BY nspname`,
      [prefix, keep],
    );
    for (const { name } of rows) await client.query(`DROP SCHEMA ${quoteIdent(name)} CASCADE`);
    return rows.map((r) => r.name);
  });
}

/** RelationSize is one table of a schema: its heap with TOAST, and each of its indexes, in bytes. */
export interface RelationSize {
  readonly table: string;
  readonly rows: number;
  /** the table's heap and TOAST (pg_table_size) */
  readonly tableBytes: number;
  readonly indexes: readonly { readonly name: string; readonly bytes: number }[];
  /** tableBytes plus every index (pg_total_relation_size) */
  readonly totalBytes: number;
}

/**
 * schemaSizes lists the tables of `schema` (and materialized views) with their sizes, largest first: where the
 * database's bytes go. `rows` is the planner's estimate after an ANALYZE of each table.
 */
export async function schemaSizes(databaseUrl: string, schema: string): Promise<RelationSize[]> {
  return withClient(databaseUrl, async (client) => {
    const { rows: tables } = await client.query<{ table: string }>(
      `SELECT c.relname AS table FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = $1 AND c.relkind IN ('r', 'm')`,
      [schema],
    );
    for (const { table } of tables) await client.query(`ANALYZE ${quoteIdent(schema)}.${quoteIdent(table)}`);
    const { rows } = await client.query<{
      table: string;
      rows: string;
      table_bytes: string;
      total_bytes: string;
      indexes: { name: string; bytes: number }[] | null;
    }>(
      `SELECT c.relname AS table, greatest(c.reltuples, 0)::bigint AS rows,
              pg_table_size(c.oid) AS table_bytes, pg_total_relation_size(c.oid) AS total_bytes,
              (SELECT json_agg(json_build_object('name', i.relname, 'bytes', pg_relation_size(i.oid))
                                ORDER BY pg_relation_size(i.oid) DESC)
                 FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid WHERE x.indrelid = c.oid) AS indexes
         FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = $1 AND c.relkind IN ('r', 'm')
        ORDER BY pg_total_relation_size(c.oid) DESC`,
      [schema],
    );
    return rows.map((r) => ({
      table: r.table,
      rows: Number(r.rows),
      tableBytes: Number(r.table_bytes),
      indexes: r.indexes ?? [],
      totalBytes: Number(r.total_bytes),
    }));
  });
}

/** dataDirectory is the server's data directory (SHOW data_directory; needs a superuser or pg_read_all_settings). */
export async function dataDirectory(databaseUrl: string): Promise<string> {
  return withClient(databaseUrl, async (client) => {
    const { rows } = await client.query<{ data_directory: string }>('SHOW data_directory');
    return rows[0]!.data_directory;
  });
}
