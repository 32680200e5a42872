/**
 * @module What a database holds, for the operator's Jobs (`mdw db usage`): its size and, per data generation
 * schema of a prefix, the schema's size, whether it is migrated, its newest applied migration, its top stored
 * height and the owner and network it records (schema_identity); with the binary's own version and newest migration,
 * so the operator can tell whether the image may run on those schemas.
 */
import pg from 'pg';
import { VERSION } from '../../base/version.ts';
import { newestMigration, STATE_TABLE } from './migrator.ts';
import { quoteIdent } from '../connection/pool.ts';

/** IDENTITY_TABLE is where a schema records its chain and its owning Middleware (migrations/1010_schema_identity.sql). */
const IDENTITY_TABLE = 'schema_identity';

/** SchemaUsage is one schema whose name is the prefix followed by a generation number. */
export interface SchemaUsage {
  readonly name: string;
  readonly generation: number;
  /** bytes of its tables, indexes and TOAST (pg_total_relation_size). */
  readonly bytes: number;
  /** it has the migrations' state table. */
  readonly migrated: boolean;
  /** the highest key-block height it stores; null when it stores none (or has no key_blocks table). */
  readonly height: number | null;
  /** its newest applied migration (`1010_schema_identity`); null when none is. */
  readonly migration: string | null;
  /** metadata.uid of the Middleware that owns it (MIDDLEWARE_UID); null when none is recorded (before 1010). */
  readonly owner_uid: string | null;
  /** `<namespace>/<name>` of that Middleware (MIDDLEWARE_NAME); null when none is recorded. */
  readonly owner_name: string | null;
  /** the network id of the chain it holds; null when none is recorded. */
  readonly network_id: string | null;
}

/** DatabaseUsage: the binary's version, the whole database's size (pg_database_size) and its generation schemas. */
export interface DatabaseUsage {
  /** the version of the binary that measured (package.json). */
  readonly version: string;
  /** the newest migration the binary ships: a schema with a newer one applied is beyond it. */
  readonly newestMigration: string | null;
  readonly databaseBytes: number;
  readonly schemas: readonly SchemaUsage[];
}

/** SchemaRow is what one query reads of a generation schema. */
interface SchemaRow {
  readonly name: string;
  readonly bytes: string;
  readonly migrated: boolean;
  readonly blocks: boolean;
  readonly identity: boolean;
}

/** generationOfSchema is N when name is `<prefix><N>` (N a positive integer), else undefined. Pure. */
export function generationOfSchema(name: string, prefix: string): number | undefined {
  if (!name.startsWith(prefix)) return undefined;
  const rest = name.slice(prefix.length);
  return /^[1-9][0-9]{0,8}$/.test(rest) ? Number(rest) : undefined;
}

/** databaseUsage measures the database at databaseUrl and its schemas named `<prefix><N>`, on one short connection. */
export async function databaseUsage(databaseUrl: string, prefix: string): Promise<DatabaseUsage> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const size = await client.query<{ bytes: string }>('SELECT pg_database_size(current_database())::text AS bytes');
    const { rows } = await client.query<SchemaRow>(
      `SELECT n.nspname AS name,
              (SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0)::text
                 FROM pg_class c WHERE c.relnamespace = n.oid AND c.relkind IN ('r', 'm')) AS bytes,
              EXISTS (SELECT 1 FROM pg_class c WHERE c.relnamespace = n.oid AND c.relname = $2) AS migrated,
              EXISTS (SELECT 1 FROM pg_class c WHERE c.relnamespace = n.oid AND c.relname = 'key_blocks') AS blocks,
              EXISTS (SELECT 1 FROM pg_class c WHERE c.relnamespace = n.oid AND c.relname = $3) AS identity
         FROM pg_namespace n
        WHERE left(n.nspname, length($1)) = $1
        ORDER BY n.nspname`,
      [prefix, STATE_TABLE, IDENTITY_TABLE],
    );
    const schemas: SchemaUsage[] = [];
    for (const row of rows) {
      const generation = generationOfSchema(row.name, prefix);
      if (generation === undefined) continue;
      schemas.push({ generation, ...(await schemaUsage(client, row)) });
    }
    schemas.sort((a, b) => a.generation - b.generation);
    return {
      version: VERSION,
      newestMigration: newestMigration() ?? null,
      databaseBytes: safeInteger(size.rows[0]?.bytes ?? '0'),
      schemas,
    };
  } finally {
    await client.end();
  }
}

/** schemaUsage reads one schema's top height, newest migration and recorded identity (each null when absent). */
async function schemaUsage(client: pg.Client, row: SchemaRow): Promise<Omit<SchemaUsage, 'generation'>> {
  const schema = quoteIdent(row.name);
  const height = row.blocks
    ? ((await client.query<{ height: number | null }>(`SELECT max(height) AS height FROM ${schema}.key_blocks`)).rows[0]
        ?.height ?? null)
    : null;
  const migration = row.migrated
    ? ((await client.query<{ name: string | null }>(`SELECT max(name) AS name FROM ${schema}.${STATE_TABLE}`)).rows[0]
        ?.name ?? null)
    : null;
  const identity = row.identity
    ? (
        await client.query<{ owner_uid: string | null; owner_name: string | null; network_id: string | null }>(
          `SELECT owner_uid, owner_name, network_id FROM ${schema}.${IDENTITY_TABLE} LIMIT 1`,
        )
      ).rows[0]
    : undefined;
  return {
    name: row.name,
    bytes: safeInteger(row.bytes),
    migrated: row.migrated,
    height,
    migration,
    owner_uid: identity?.owner_uid ?? null,
    owner_name: identity?.owner_name ?? null,
    network_id: identity?.network_id ?? null,
  };
}

/** safeInteger reads a bigint's text; sizes stay far below 2^53 bytes (8 PiB), and a larger one is refused, not rounded. */
function safeInteger(text: string): number {
  const n = Number(text);
  if (!Number.isSafeInteger(n)) throw new Error(`size ${text} is beyond 2^53`);
  return n;
}
