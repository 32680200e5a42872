/**
 * @module Administration outside the migrations: create a database and drop old chains' schemas (`mdw dev`), drop a
 * schema (`mdw migrate --drop`), empty one (`-v --full`'s scratch once compared).
 */
import pg from 'pg';
import { inTransaction, quoteIdent } from '../connection/pool.ts';
import { STATE_TABLE } from './migrator.ts';

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
 * The rows a freshly migrated schema holds besides its migrations' log: the migrations insert them, the triggers keep
 * them up to date, and the writers only update them. An emptied schema gets them back (their tables, written to by
 * the migrations, are always truncated). A migration seeding another
 * table is to add it here (test/integration/db/admin.test.ts finds an emptied schema that differs from a new one).
 */
const SEEDED_ROWS = [
  'INSERT INTO sync_state (id) VALUES (true)',
  'INSERT INTO account_holders (id, holders) VALUES (true, 0)',
  'INSERT INTO key_block_count (one, n) VALUES (true, 0)',
];

/**
 * emptySchema leaves the migrated `schema` as its migrations made it, in one transaction: every table but the
 * migrations' log truncated (its disk freed at once, as a DROP would), every sequence restarted, the seeded rows
 * back. A table's trigger refusing a TRUNCATE (aex9_events' guard of the token state it derives) is off for it alone:
 * every table is emptied at once, so what it guards stays whole. For a schema filled again by the same version, which
 * need not migrate a new one (`-v --full`'s scratch, about 0.6 CPU s of PostgreSQL per migration).
 */
export async function emptySchema(databaseUrl: string, schema: string): Promise<void> {
  await withClient(databaseUrl, (client) =>
    inTransaction(client, async () => {
      // the tables written to (one never written, or emptied, has no page of rows, in its heap or its TOAST, and its
      // indexes only what CREATE INDEX made: a TRUNCATE would make each of their files again for nothing); the statements before the TRUNCATE (its guards off)
      // and after it (them on, the sequences restarted)
      const { rows } = await client.query<{ step: 'table' | 'before' | 'after'; sql: string }>(
        `WITH written AS (
           SELECT c.oid, c.relname, n.nspname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
            WHERE n.nspname = $1 AND c.relkind IN ('r', 'p') AND c.relname <> $2
              AND pg_relation_size(c.oid) + coalesce(pg_relation_size(nullif(c.reltoastrelid, 0)), 0) > 0)
         SELECT 'table' AS step, format('%I.%I', nspname, relname) AS sql FROM written
         UNION ALL
         SELECT 'after', format('ALTER SEQUENCE %I.%I RESTART', n.nspname, c.relname)
           FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1 AND c.relkind = 'S'
         UNION ALL
         SELECT s.step, format('ALTER TABLE %I.%I %s TRIGGER %I', w.nspname, w.relname, s.verb, t.tgname)
           FROM pg_trigger t JOIN written w ON w.oid = t.tgrelid,
                (VALUES ('before', 'DISABLE'), ('after', 'ENABLE')) AS s (step, verb)
          WHERE NOT t.tgisinternal AND t.tgenabled <> 'D' AND t.tgtype & 32 <> 0 -- on TRUNCATE`,
        [schema, STATE_TABLE],
      );
      const step = (name: string): string[] => rows.filter((r) => r.step === name).map((r) => r.sql);
      for (const sql of step('before')) await client.query(sql);
      if (step('table').length > 0) await client.query(`TRUNCATE ${step('table').join(', ')}`);
      for (const sql of step('after')) await client.query(sql);
      await client.query(`SET LOCAL search_path TO ${quoteIdent(schema)}`);
      for (const insert of SEEDED_ROWS) await client.query(insert);
    }),
  );
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
