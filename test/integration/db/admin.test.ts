/** @module Database administration outside the migrations, on a real PostgreSQL: `mdw dev` creating its database, `mdw migrate --drop`. */
import { expect } from 'chai';
import pg from 'pg';
import { dropSchema, ensureDatabase } from '../../../src/db/schema/admin.ts';
import { createMigratedDatabase, createTestDatabase } from '../../support/postgres.ts';

async function queryOnce<T extends pg.QueryResultRow>(url: string, sql: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql, values)).rows;
  } finally {
    await client.end();
  }
}

describe('database administration (PostgreSQL)', () => {
  it('ensureDatabase creates a missing database once and leaves an existing one alone', async () => {
    const db = await createTestDatabase();
    const server = new URL(db.url);
    server.pathname = '';
    const serverUrl = server.toString().replace(/\/$/, '');
    const name = `mdw_dev_${process.pid}_${Date.now()}`;
    try {
      await ensureDatabase(serverUrl, name);
      await ensureDatabase(serverUrl, name);
      const rows = await queryOnce(`${serverUrl}/postgres`, 'SELECT datname FROM pg_database WHERE datname = $1', [
        name,
      ]);
      expect(rows).to.have.length(1);
    } finally {
      await queryOnce(`${serverUrl}/postgres`, `DROP DATABASE IF EXISTS ${name}`);
      await db.drop();
    }
  });

  it('dropSchema removes a schema with everything in it, and succeeds again when it is gone', async () => {
    const db = await createMigratedDatabase('mdw_g1');
    try {
      await dropSchema(db.url, 'mdw_g1');
      await dropSchema(db.url, 'mdw_g1');
      const rows = await queryOnce(db.url, "SELECT 1 FROM information_schema.schemata WHERE schema_name = 'mdw_g1'");
      expect(rows).to.deep.equal([]);
    } finally {
      await db.drop();
    }
  });
});
