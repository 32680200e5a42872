/**
 * @module SQL of `mdw snapshot` (docs/operations.md, "Starting from a snapshot"): a schema's tables and sequences read in
 * one REPEATABLE READ transaction, and restored into a schema migrated to the snapshot's level over several
 * connections whose transactions commit together once all have succeeded: triggers dropped while the rows go in (the
 * kept counts and derived rows come with the snapshot, as they were), indexes built and triggers created after the
 * rows, so an interrupted import leaves the schema as empty as it found it.
 */
import type { Readable } from 'node:stream';
import type { PoolClient, Queryable } from '../connection/pool.ts';
import { largestFirst } from '../../base/workers.ts';
import { quoteIdent } from '../connection/pool.ts';
import { copyFrom, copyOut } from './snapshot-copy.ts';

/** A table of the schema: its name and its columns in their order. */
export interface SnapshotTable {
  readonly name: string;
  readonly columns: readonly string[];
}

/** A table and its size in bytes, by which a snapshot's connections take the largest left first. */
export interface SizedTable extends SnapshotTable {
  readonly bytes: number;
}

/** A sequence's state: the value nextval hands out after (`called`) or as its next. */
export interface SequenceState {
  readonly name: string;
  /** bigint as text */
  readonly value: string;
  readonly called: boolean;
}

/** schemaTables lists `schema`'s tables (but `excluded`) with their columns and their sizes (with TOAST), by name. */
export async function schemaTables(db: Queryable, schema: string, excluded: readonly string[]): Promise<SizedTable[]> {
  const { rows } = await db.query<SizedTable>(
    `SELECT c.relname AS name, array_agg(a.attname::text ORDER BY a.attnum) AS columns,
            pg_table_size(c.oid)::float8 AS bytes
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
       JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
      WHERE n.nspname = $1 AND c.relkind = 'r' AND c.relname <> ALL($2::text[])
      GROUP BY c.oid, c.relname ORDER BY c.relname`,
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

/** The snapshot an import restored into a schema (migrations/1149_snapshot_restored.sql). */
export interface RestoredSnapshot {
  readonly manifestSha256: string;
  readonly top: { readonly height: number; readonly hash: string };
}

/** restoredSnapshot is the snapshot `schema` was restored from by an import, undefined when none (or no such table). */
export async function restoredSnapshot(db: Queryable, schema: string): Promise<RestoredSnapshot | undefined> {
  const table = `${quoteIdent(schema)}.snapshot_restored`;
  const { rows: exists } = await db.query<{ t: string | null }>('SELECT to_regclass($1)::text AS t', [table]);
  if (exists[0]?.t == null) return undefined;
  const { rows } = await db.query<{ manifest_sha256: string; top_height: number; top_hash: string }>(
    `SELECT manifest_sha256, top_height, top_hash FROM ${table}`,
  );
  const row = rows[0];
  return row && { manifestSha256: row.manifest_sha256, top: { height: row.top_height, hash: row.top_hash } };
}

/** recordRestored notes in `schema` the snapshot an import restored there (replacing any row). */
export async function recordRestored(db: Queryable, schema: string, restored: RestoredSnapshot): Promise<void> {
  await db.query(
    `INSERT INTO ${quoteIdent(schema)}.snapshot_restored (manifest_sha256, top_height, top_hash) VALUES ($1, $2, $3)
     ON CONFLICT (singleton) DO UPDATE SET manifest_sha256 = EXCLUDED.manifest_sha256,
       top_height = EXCLUDED.top_height, top_hash = EXCLUDED.top_hash, restored_at = now()`,
    [restored.manifestSha256, restored.top.height, restored.top.hash],
  );
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

/**
 * exportedSnapshot names the snapshot of `db`'s transaction (REPEATABLE READ, begun) for other connections to read it
 * too (joinSnapshot), as pg_dump's parallel jobs do: valid while that transaction lasts.
 */
export async function exportedSnapshot(db: Queryable): Promise<string> {
  const { rows } = await db.query<{ id: string }>('SELECT pg_export_snapshot() AS id');
  return rows[0]!.id;
}

/**
 * joinSnapshot runs fn while each of `clients` is in a read-only REPEATABLE READ transaction that sees the exported
 * snapshot `id` (exportedSnapshot): the very state its exporter's transaction sees, whatever was committed since.
 */
export async function joinSnapshot<T>(clients: readonly PoolClient[], id: string, fn: () => Promise<T>): Promise<T> {
  // a statement without parameters: the id is the server's, checked to be one before it is spelled out
  if (!/^[0-9A-F-]+$/i.test(id)) throw new Error(`not a snapshot id: ${id}`);
  try {
    for (const client of clients) {
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      await client.query(`SET TRANSACTION SNAPSHOT '${id}'`);
    }
    return await fn();
  } finally {
    // read only: nothing to keep, and a connection whose COPY failed has its transaction aborted
    await Promise.all(clients.map((client) => client.query('ROLLBACK').catch(() => {})));
  }
}

/** copyTableOut streams one table's rows in COPY's text format, its columns in `table.columns`' order. */
export function copyTableOut(
  client: PoolClient,
  schema: string,
  table: SnapshotTable,
): { stream: Readable; rows: () => number } {
  return copyOut(client, `COPY ${qualified(schema, table)} TO STDOUT`);
}

/** A table to restore: its columns as the snapshot holds them, its size (the part's bytes before compression: what its
 * COPY and its index builds grow with), and its rows. */
export interface RestoredTable extends SizedTable {
  /** its rows in COPY's text format, opened when the table's turn comes */
  readonly open: () => Readable;
}

/**
 * Where a restore's time went, in milliseconds: each phase summed over the connections (they overlap: together more
 * than the wall time), and the wall time of the rows' transactions up to their commit.
 */
export interface RestoreTimes {
  readonly copy: number;
  readonly indexes: number;
  readonly wall: number;
}

/**
 * The rows of the source deployment's own that a restore clears, per table, right after the table's COPY: the schema's
 * owner (the importing Middleware's start records its own) and the populator's last status.
 */
const DEPLOYMENT_OWN: ReadonlyMap<string, string> = new Map([
  ['schema_identity', 'SET owner_uid = NULL, owner_name = NULL'],
  ['sync_state', "SET status = 'idle', heartbeat_at = NULL, last_error = NULL"],
]);

/**
 * Memory per connection for its index builds: the largest tables' indexes sort in memory rather than in temporary
 * files, and PostgreSQL's parallel index build shares it among its workers.
 */
const INDEX_BUILD_MEMORY = '256MB';

/**
 * restoreTables fills `schema`'s `tables` (migrated to the snapshot's level, so their columns are the snapshot's) with
 * the rows each `open()` gives, replacing what the migrations seeded, over `clients`, each in a transaction of its
 * own: each connection takes the largest table left, drops its user triggers (the kept counts and derived rows are
 * restored, not derived again; dropped, not disabled: tableRebuilds), its indexes and the constraints that own one,
 * empties it, COPYs its rows FREEZE (the table was emptied in the same transaction: no later rewrite by VACUUM), clears
 * the source deployment's own rows, builds the indexes and constraints again (one sort each, not an insert per row) and
 * creates the triggers again as they were, then takes the next. The transactions commit only once every connection
 * has restored all its tables: a failure anywhere rolls every one back, so the schema is left as empty as it was
 * found, but for the moment between the first commit and the last. The sequences are set last (outside transactions in
 * PostgreSQL). `onTable` hears each table's rows as the server counted them, inside its transaction: what it throws
 * rolls the restore back.
 */
export async function restoreTables(
  clients: readonly PoolClient[],
  schema: string,
  tables: readonly RestoredTable[],
  sequences: readonly SequenceState[],
  onTable: (table: string, rows: number) => void,
): Promise<RestoreTimes> {
  const started = performance.now();
  const rebuilds = await tableRebuilds(clients[0]!, schema, tables);
  const spent = { copy: 0, indexes: 0 };
  const restoreOne = async (client: PoolClient, table: RestoredTable): Promise<void> => {
    const name = `${quoteIdent(schema)}.${quoteIdent(table.name)}`;
    const { drop, build } = rebuilds.get(table.name) ?? { drop: [], build: [] };
    for (const statement of drop) await client.query(statement);
    await client.query(`TRUNCATE ${name}`);
    let at = performance.now();
    const rows = await copyFrom(client, `COPY ${qualified(schema, table)} FROM STDIN WITH (FREEZE)`, table.open());
    spent.copy += performance.now() - at;
    onTable(table.name, rows);
    const own = DEPLOYMENT_OWN.get(table.name);
    if (own !== undefined) await client.query(`UPDATE ${name} ${own}`);
    at = performance.now();
    for (const statement of build) await client.query(statement);
    spent.indexes += performance.now() - at;
  };
  try {
    for (const client of clients) {
      await client.query('BEGIN');
      await client.query(`SET LOCAL maintenance_work_mem = '${INDEX_BUILD_MEMORY}'`);
    }
    await largestFirst(clients, tables, restoreOne);
  } catch (err) {
    await Promise.all(clients.map((client) => client.query('ROLLBACK').catch(() => {})));
    throw err;
  }
  for (const client of clients) await client.query('COMMIT');
  const wall = performance.now() - started;
  for (const s of sequences)
    await clients[0]!.query('SELECT setval($1::regclass, $2::bigint, $3)', [
      `${quoteIdent(schema)}.${quoteIdent(s.name)}`,
      s.value,
      s.called,
    ]);
  return { ...spent, wall };
}

/** A table's indexes and triggers as a restore drops them before its rows and creates them after, in order. */
interface TableRebuild {
  readonly drop: readonly string[];
  readonly build: readonly string[];
}

/**
 * tableRebuilds reads each table's indexes, the constraints that own one (primary keys, unique and exclusion
 * constraints) and its user triggers as the statements that drop them and create them again: a trigger as
 * pg_get_triggerdef gives it (its table named with its schema), then turned off, or on for replicas or always, when
 * it was not simply on. Dropped, not disabled: PostgreSQL copies every row a statement writes into the transition
 * tables (REFERENCING NEW TABLE) of a disabled statement trigger all the same (only its run is skipped), temporary
 * files for a whole table's COPY. The foreign keys' internal triggers are not among them, nor the foreign keys: a
 * snapshot's tables have none (a restore would otherwise have to drop them first and check them after).
 */
async function tableRebuilds(
  db: Queryable,
  schema: string,
  tables: readonly SnapshotTable[],
): Promise<Map<string, TableRebuild>> {
  const { rows } = await db.query<{ table: string; drop: string; build: string[] }>(
    `SELECT t.relname AS table,
            CASE WHEN c.oid IS NULL THEN format('DROP INDEX %I.%I', n.nspname, i.relname)
                 ELSE format('ALTER TABLE %I.%I DROP CONSTRAINT %I', n.nspname, t.relname, c.conname) END AS drop,
            ARRAY[CASE WHEN c.oid IS NULL THEN pg_get_indexdef(x.indexrelid)
                       ELSE format('ALTER TABLE %I.%I ADD CONSTRAINT %I %s', n.nspname, t.relname, c.conname,
                                   pg_get_constraintdef(c.oid)) END] AS build,
            0 AS kind, i.relname AS object
       FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid
       JOIN pg_namespace n ON n.oid = t.relnamespace
       LEFT JOIN pg_constraint c ON c.conindid = x.indexrelid AND c.conrelid = x.indrelid AND c.contype IN ('p', 'u', 'x')
      WHERE n.nspname = $1 AND t.relname = ANY($2::text[])
     UNION ALL
     SELECT t.relname, format('DROP TRIGGER %I ON %I.%I', g.tgname, n.nspname, t.relname),
            ARRAY[pg_get_triggerdef(g.oid)] || CASE g.tgenabled
              WHEN 'O' THEN '{}'::text[]
              ELSE ARRAY[format('ALTER TABLE %I.%I %s TRIGGER %I', n.nspname, t.relname,
                                CASE g.tgenabled WHEN 'D' THEN 'DISABLE' WHEN 'R' THEN 'ENABLE REPLICA'
                                                 ELSE 'ENABLE ALWAYS' END, g.tgname)] END,
            1, g.tgname
       FROM pg_trigger g JOIN pg_class t ON t.oid = g.tgrelid JOIN pg_namespace n ON n.oid = t.relnamespace
      WHERE n.nspname = $1 AND t.relname = ANY($2::text[]) AND NOT g.tgisinternal
      ORDER BY 1, kind, object`,
    [schema, tables.map((t) => t.name)],
  );
  const out = new Map<string, { drop: string[]; build: string[] }>();
  for (const row of rows) {
    const rebuild = out.get(row.table) ?? { drop: [], build: [] };
    rebuild.drop.push(row.drop);
    rebuild.build.push(...row.build);
    out.set(row.table, rebuild);
  }
  return out;
}

/**
 * analyzeTables gathers the planner's statistics of `schema`'s `tables` (largest first, each connection taking the
 * next), which a restore leaves empty and autovacuum would take its time to gather.
 */
export async function analyzeTables(
  clients: readonly PoolClient[],
  schema: string,
  tables: readonly SizedTable[],
): Promise<void> {
  await largestFirst(clients, tables, async (client, table) => {
    await client.query(`ANALYZE ${quoteIdent(schema)}.${quoteIdent(table.name)}`);
  });
}

/** qualified is `schema.table (columns)`, as a COPY names them. */
function qualified(schema: string, table: SnapshotTable): string {
  return `${quoteIdent(schema)}.${quoteIdent(table.name)} (${table.columns.map(quoteIdent).join(', ')})`;
}
