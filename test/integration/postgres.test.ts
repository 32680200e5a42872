import { expect } from 'chai';
import { createPool } from '../../src/db/pool.ts';
import { createTestDatabase } from '../support/postgres.ts';
import pino from 'pino';

describe('test PostgreSQL and db/pool', () => {
  it('returns jsonb integers beyond 2^53 exactly and uses the configured schema', async () => {
    const db = await createTestDatabase();
    const pool = createPool({ databaseUrl: db.url, schema: 'mdw_g7' }, pino({ level: 'silent' }));
    try {
      await pool.query('CREATE SCHEMA mdw_g7');
      await pool.query('CREATE TABLE t (v jsonb)');
      await pool.query('INSERT INTO t VALUES ($1::jsonb)', ['{"nonce": 15041902164601590529}']);
      const { rows } = await pool.query('SELECT v, current_schema() AS s FROM t');
      expect(rows[0].v.nonce).to.equal(15041902164601590529n);
      expect(rows[0].s).to.equal('mdw_g7');
    } finally {
      await pool.end();
      await db.drop();
    }
  });
});
