/** @module concurrently (db/connection/pool.ts): independent reads at once on a pool, one after another on a client, which pg@9 requires. */
import { expect } from 'chai';
import pino from 'pino';
import { concurrently, createPool, type Pool } from '../../../src/db/connection/pool.ts';
import { createTestDatabase } from '../../support/postgres.ts';

describe('concurrently against PostgreSQL', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let pool: Pool;
  const warnings: Error[] = [];
  const onWarning = (w: Error) => warnings.push(w);
  before(async () => {
    db = await createTestDatabase();
    pool = createPool({ databaseUrl: db.url, schema: 'public', max: 4 }, pino({ level: 'silent' }));
    process.on('warning', onWarning);
  });
  after(async () => {
    process.off('warning', onWarning);
    await pool?.end();
    await db?.drop();
  });

  const backend = (q: { query: Pool['query'] }) => async () =>
    Number((await q.query<{ pid: number }>('SELECT pg_backend_pid() AS pid, pg_sleep(0.05)')).rows[0]!.pid);

  it('on a pool, runs the reads at once, each on a connection of its own, the answers in their order', async () => {
    const [a, b, n] = await concurrently(pool, [
      backend(pool),
      backend(pool),
      async () => (await pool.query<{ n: number }>('SELECT 7 AS n')).rows[0]!.n,
    ]);
    expect(a).to.not.equal(b);
    expect(n).to.equal(7);
  });

  it('on a client (a snapshot, a transaction), runs them one after another on it, with no queued query', async () => {
    const client = await pool.connect();
    try {
      const before = warnings.length;
      const [a, b, c] = await concurrently(client, [backend(client), backend(client), backend(client)]);
      expect([b, c]).to.deep.equal([a, a]);
      // a query queued behind another on a busy client is what pg deprecates (and pg@9 refuses): the third of three at once
      await new Promise((r) => setImmediate(r));
      expect(warnings.slice(before).map((w) => w.message)).to.deep.equal([]);
    } finally {
      client.release();
    }
  });
});
