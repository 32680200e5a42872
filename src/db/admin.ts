/** @module Administration outside the migrations: create a database (`mdw dev`), drop a schema (`mdw migrate --drop`). */
import pg from 'pg';
import { quoteIdent } from './pool.ts';

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
