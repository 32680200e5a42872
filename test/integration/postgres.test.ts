import { expect } from 'chai';
import { loadConfig } from '../../src/config/middleware.ts';
import { createPool, createReadPool, createWritePool } from '../../src/db/connection/pool.ts';
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

describe('read and write pools', () => {
  const silent = pino({ level: 'silent' });
  it('a read pool reads the schema but refuses every write; a write pool writes', async () => {
    const db = await createTestDatabase();
    const cfg = loadConfig({ DATABASE_URL: db.url, DATABASE_SCHEMA: 'mdw_g8' });
    const writes = createWritePool(cfg, 'test-writes', silent, 2);
    const reads = createReadPool(cfg, 'test-reads', silent, { max: 2 });
    try {
      await writes.query('CREATE SCHEMA mdw_g8');
      await writes.query('CREATE TABLE t (v int)');
      await writes.query('INSERT INTO t VALUES (1)');
      const { rows } = await reads.query('SELECT v, current_schema() AS s FROM t');
      expect(rows).to.deep.equal([{ v: 1, s: 'mdw_g8' }]);
      const refused = await reads.query('INSERT INTO t VALUES (2)').then(
        () => undefined,
        (err: { code?: string }) => err.code,
      );
      // 25006: read_only_sql_transaction
      expect(refused).to.equal('25006');
    } finally {
      await Promise.all([reads.end(), writes.end()]);
      await db.drop();
    }
  });
});
