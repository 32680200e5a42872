/**
 * @module What a database holds, for the operator's Jobs (`mdw db usage`): its size and, per data generation
 * schema of a prefix, the schema's size, whether it is migrated, and its top stored height.
 */
import pg from 'pg';
import { STATE_TABLE } from './migrator.ts';
import { quoteIdent } from './pool.ts';

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
}

/** DatabaseUsage: the whole database's size (pg_database_size) and its generation schemas, by generation. */
export interface DatabaseUsage {
  readonly databaseBytes: number;
  readonly schemas: readonly SchemaUsage[];
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
    const { rows } = await client.query<{ name: string; bytes: string; migrated: boolean; blocks: boolean }>(
      `SELECT n.nspname AS name,
              (SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0)::text
                 FROM pg_class c WHERE c.relnamespace = n.oid AND c.relkind IN ('r', 'm')) AS bytes,
              EXISTS (SELECT 1 FROM pg_class c WHERE c.relnamespace = n.oid AND c.relname = $2) AS migrated,
              EXISTS (SELECT 1 FROM pg_class c WHERE c.relnamespace = n.oid AND c.relname = 'key_blocks') AS blocks
         FROM pg_namespace n
        WHERE left(n.nspname, length($1)) = $1
        ORDER BY n.nspname`,
      [prefix, STATE_TABLE],
    );
    const schemas: SchemaUsage[] = [];
    for (const row of rows) {
      const generation = generationOfSchema(row.name, prefix);
      if (generation === undefined) continue;
      const height = row.blocks
        ? ((
            await client.query<{ height: number | null }>(
              `SELECT max(height) AS height FROM ${quoteIdent(row.name)}.key_blocks`,
            )
          ).rows[0]?.height ?? null)
        : null;
      schemas.push({ name: row.name, generation, bytes: safeInteger(row.bytes), migrated: row.migrated, height });
    }
    schemas.sort((a, b) => a.generation - b.generation);
    return { databaseBytes: safeInteger(size.rows[0]?.bytes ?? '0'), schemas };
  } finally {
    await client.end();
  }
}

/** safeInteger reads a bigint's text; sizes stay far below 2^53 bytes (8 PiB), and a larger one is refused, not rounded. */
function safeInteger(text: string): number {
  const n = Number(text);
  if (!Number.isSafeInteger(n)) throw new Error(`size ${text} is beyond 2^53`);
  return n;
}
