/**
 * @module The trigram index of the names' substring search (`/middleware/names/{query}`, queries/names.ts): pg_trgm's
 * GIN index on name_state.name, made after the migrations when the extension is there or can be made, else left out
 * (the search then reads every name, as before it). Not a migration: whether it can be made depends on the server and
 * the role, not on the schema's history (pg_trgm is trusted, so any role with CREATE on the database makes it, from
 * PostgreSQL 13; before, a superuser; never where the server lacks the contrib modules or a managed service refuses
 * it), and once a superuser made the extension the next `mdw migrate` (or populator start) builds the index.
 * docs/operations.md, "A name's substring search".
 */
import { errorMessage } from '../../base/errors.ts';
import { inTransaction, quoteIdent, type PoolClient } from '../connection/pool.ts';

/** The index, in each data generation's schema. */
export const NAME_SEARCH_INDEX = 'name_state_name_trgm';

/**
 * EXTENSION_SCHEMA holds pg_trgm when the middleware makes it: a schema of its own, outside every data generation, so
 * that dropping a generation (`mdw migrate --drop`, a blue/green clean-up; the default generation is `public`) never
 * drops the extension and with it the other generations' indexes. An extension made elsewhere before is used where it is.
 */
export const EXTENSION_SCHEMA = 'mdw_extensions';

/** What ensureNameSearchIndex found or did. */
export type NameSearchIndex =
  { readonly state: 'present' | 'built' | 'no-names' } | { readonly state: 'absent'; readonly reason: string };

/** the schema pg_trgm lives in, if the database has it */
async function extensionSchema(client: PoolClient): Promise<string | undefined> {
  const { rows } = await client.query<{ schema: string }>(
    `SELECT n.nspname AS schema FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'pg_trgm'`,
  );
  return rows[0]?.schema;
}

/**
 * makeExtension makes pg_trgm in EXTENSION_SCHEMA, one migrator of the database at a time (two schemas migrating at once
 * would both try), returning where it lives or why it cannot be made.
 */
async function makeExtension(client: PoolClient): Promise<{ schema: string } | { reason: string }> {
  await client.query("SELECT pg_advisory_lock(hashtext('mdw_extension:pg_trgm'))");
  try {
    const made = await extensionSchema(client);
    if (made !== undefined) return { schema: made };
    await inTransaction(client, async () => {
      await client.query(`CREATE SCHEMA IF NOT EXISTS ${quoteIdent(EXTENSION_SCHEMA)}`);
      await client.query(`CREATE EXTENSION IF NOT EXISTS pg_trgm SCHEMA ${quoteIdent(EXTENSION_SCHEMA)}`);
    });
    return { schema: EXTENSION_SCHEMA };
  } catch (err) {
    return { reason: errorMessage(err) };
  } finally {
    await client.query("SELECT pg_advisory_unlock(hashtext('mdw_extension:pg_trgm'))").catch(() => {});
  }
}

/**
 * ensureNameSearchIndex builds the index in the connection's schema (its search_path) unless it is there: after making
 * pg_trgm if the database lacks it, naming the operator class by its schema (a generation's search_path holds only
 * itself). Not concurrently: the names' writes wait for the build (seconds; the servers read on), where a concurrent
 * build waits for every older transaction of the database, and a role waiting for a lock of ours (a standby populator
 * for the writer lock, a second migrator) waits inside one while it waits for this migrator: the build never ended. A
 * build that fails or is killed leaves nothing behind (one statement). It never throws for want of the extension or a
 * failed build: the search answers the same without the index, reading every name.
 */
export async function ensureNameSearchIndex(client: PoolClient): Promise<NameSearchIndex> {
  const { rows } = await client.query<{ names: boolean; indexed: boolean }>(
    `SELECT to_regclass(format('%I.name_state', current_schema())) IS NOT NULL AS names,
            to_regclass(format('%I.%I', current_schema(), $1::text)) IS NOT NULL AS indexed`,
    [NAME_SEARCH_INDEX],
  );
  if (!rows[0]?.names) return { state: 'no-names' };
  if (rows[0].indexed) return { state: 'present' };
  const extension = await makeExtension(client);
  if ('reason' in extension) return { state: 'absent', reason: extension.reason };
  try {
    await client.query(
      `CREATE INDEX ${NAME_SEARCH_INDEX} ON name_state USING gin (name ${quoteIdent(extension.schema)}.gin_trgm_ops) WITH (gin_pending_list_limit = 256)`,
    );
    return { state: 'built' };
  } catch (err) {
    return { state: 'absent', reason: errorMessage(err) };
  }
}
