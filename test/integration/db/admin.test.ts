/**
 * @module Database administration outside the migrations, on a real PostgreSQL: `mdw dev` creating its database,
 * `mdw migrate --drop`, `-v --full` emptying its scratch schema.
 */
import { expect } from 'chai';
import pg from 'pg';
import { dropSchema, emptySchema, ensureDatabase } from '../../../src/db/schema/admin.ts';
import { createMigratedDatabase, createTestDatabase } from '../../support/postgres.ts';
import { freshContents, schemaContents } from '../../support/schema-contents.ts';

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

  it('emptySchema leaves a written schema as a new one: rows, sequences and guards as its migrations made them', async () => {
    const db = await createMigratedDatabase('mdw_g1');
    try {
      const q = (sql: string): Promise<unknown> => db.pool.query(sql);
      // a key block, a token event (its trigger derives the token's state and refuses a TRUNCATE), the seeded rows
      // changed, each sequence drawn from, a reload's progress, an identity
      await q(
        `INSERT INTO key_blocks (height, hash, prev_hash, prev_key_hash, beneficiary, miner, time_ms, data)
         VALUES (0, 'kh_a', 'kh_a', 'kh_a', 'ak_a', 'ak_a', 1, '{}')`,
      );
      await q(
        `INSERT INTO aex9_events (contract_id, account, height, micro_index, tx_index, log_idx, side, tx_hash, kind, delta)
         VALUES ('ct_a', 'ak_a', 0, 0, 0, -1, 1, 'th_a', 'seed', 5)`,
      );
      await q('UPDATE sync_state SET top_height = 0');
      await q(
        "SELECT nextval(c.oid) FROM pg_class c WHERE c.relkind = 'S' AND c.relnamespace = 'mdw_g1'::regnamespace",
      );
      await q("INSERT INTO reload_progress (heights, phase, done_through) VALUES ('0-9', 'listed', 0)");
      await q("INSERT INTO schema_identity (network_id) VALUES ('ae_test')");
      const written = await schemaContents(db.url, 'mdw_g1');
      expect(written.tables.aex9_balances, 'the trigger derived the balance').to.have.length(1);
      expect(written.tables.key_block_count).to.deep.equal([{ row: { one: true, n: 1 } }]);

      await emptySchema(db.url, 'mdw_g1');
      expect(await schemaContents(db.url, 'mdw_g1')).to.deep.equal(await freshContents(db.url));
      // and the token state's guard is on again
      await q('BEGIN');
      const refused = await db.pool.query('TRUNCATE aex9_events').catch((err: Error) => err);
      await q('ROLLBACK');
      expect(String(refused)).to.contain('aex9_events rows are only inserted and deleted');
    } finally {
      await db.drop();
    }
  });
});
