/**
 * @module SQL of the schema's identity (migrations/1010_schema_identity.sql): the chain it holds and the Middleware
 * that owns it, and the migrations it has applied, as every role reads them before it writes or serves (the writer
 * recording it: db/writes/schema-identity.ts).
 */
import type { Queryable } from '../connection/pool.ts';
import { STATE_TABLE } from '../schema/migrator.ts';

/** The recorded identity; a field is null while no role has recorded it. */
export interface RecordedIdentity {
  readonly networkId: string | null;
  readonly genesisHash: string | null;
  readonly ownerUid: string | null;
  readonly ownerName: string | null;
}

/** What a schema says of itself before anything is compared. */
export interface SchemaFacts {
  /** the migrations it applied; empty for a schema no role created yet */
  readonly applied: readonly string[];
  /** its recorded identity; undefined when there is no row (or no table: a schema not migrated to 1010 yet) */
  readonly identity: RecordedIdentity | undefined;
  /** the stored key block at height 0, what a schema from before 1010 knows of its chain */
  readonly storedGenesis: string | undefined;
  /** it holds the users' configuration tables itself (db/schema/shared-config.ts moves them to their own schema) */
  readonly holdsConfiguration: boolean;
}

export interface IdentityRow {
  network_id: string | null;
  genesis_hash: string | null;
  owner_uid: string | null;
  owner_name: string | null;
}

/**
 * schemaFacts reads the applied migrations, the identity row and the stored genesis hash of the pool's schema (its
 * search_path), each only where its table exists: a schema that is new, or older than the table, reads as empty.
 */
export async function schemaFacts(db: Queryable, schema: string): Promise<SchemaFacts> {
  const { rows: tables } = await db.query<{ name: string }>(
    `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = $1 AND c.relname = ANY($2::text[])`,
    [schema, [STATE_TABLE, 'schema_identity', 'key_blocks', 'webhooks']],
  );
  const has = new Set(tables.map((t) => t.name));
  const applied = has.has(STATE_TABLE)
    ? (await db.query<{ name: string }>(`SELECT name FROM ${STATE_TABLE} ORDER BY name`)).rows.map((r) => r.name)
    : [];
  const identity = has.has('schema_identity')
    ? (await db.query<IdentityRow>('SELECT network_id, genesis_hash, owner_uid, owner_name FROM schema_identity'))
        .rows[0]
    : undefined;
  const genesis = has.has('key_blocks')
    ? (await db.query<{ hash: string }>('SELECT hash FROM key_blocks WHERE height = 0')).rows[0]?.hash
    : undefined;
  return {
    applied,
    identity: identity && fromRow(identity),
    storedGenesis: genesis,
    holdsConfiguration: has.has('webhooks'),
  };
}

/** fromRow is the row as the roles read it. */
export function fromRow(row: IdentityRow): RecordedIdentity {
  return {
    networkId: row.network_id,
    genesisHash: row.genesis_hash,
    ownerUid: row.owner_uid,
    ownerName: row.owner_name,
  };
}
