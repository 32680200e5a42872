/**
 * @module A statement is cancelled with the work that sent it (src/db/connection/statement-cancel.ts), also when it waited for
 * a connection of a full pool: pg-pool hands the connection over from another's release, and the statement must still
 * follow its own work, not the releaser's.
 */
import { expect } from 'chai';
import pino from 'pino';
import { createPool, type Pool } from '../../../src/db/connection/pool.ts';
import { cancelledWith, isStatementCancelled, Work } from '../../../src/db/connection/statement-cancel.ts';
import { createTestDatabase, queryOnce } from '../../support/postgres.ts';

describe('statements cancelled with their work', function () {
  this.timeout(60_000);
  let db: { url: string; drop(): Promise<void> };
  let pool: Pool;
  before(async () => {
    db = await createTestDatabase();
    pool = createPool({ databaseUrl: db.url, schema: 'public', max: 1 }, pino({ level: 'silent' }));
  });
  after(async () => {
    await pool?.end();
    await db?.drop();
  });

  /** failure is how a query settled: its SQLSTATE when it failed, 'done' when it ran to its end */
  const failure = (query: Promise<unknown>): Promise<string> =>
    query.then(
      () => 'done',
      (err: unknown) => (isStatementCancelled(err) ? 'cancelled' : String(err)),
    );

  /** running says whether `sql` runs in PostgreSQL, once it does or after 1000 looks (each on a connection of its own) */
  const running = async (sql: string): Promise<boolean> => {
    const runs = async (): Promise<boolean> =>
      (await queryOnce(db.url, 'SELECT 1 FROM pg_stat_activity WHERE query = $1', [sql])).rows.length > 0;
    for (let i = 0; i < 1000; i++) if (await runs()) return true;
    return false;
  };

  it('cancels a statement in flight when its own work is cancelled, one that waited for the connection too', async () => {
    const first = new Work();
    const second = new Work();
    // the pool's one connection is the first's; the second's statement waits for it, then sleeps far past the test
    const held = cancelledWith(first, () => pool.query('SELECT pg_sleep(0.2)'));
    const waiting = failure(cancelledWith(second, () => pool.query('SELECT pg_sleep(40)')));
    expect(await failure(held)).to.equal('done');
    expect(await running('SELECT pg_sleep(40)'), 'the second statement runs').to.equal(true);
    second.cancel();
    expect(await waiting).to.equal('cancelled');
  });

  it("leaves the statement of the connection's next holder alone when the work that used it before is cancelled", async () => {
    const before = new Work();
    const after = new Work();
    // one connection: the first work's statement ends and releases it, and the second work's runs on it
    expect(await failure(cancelledWith(before, () => pool.query('SELECT 1')))).to.equal('done');
    const next = failure(cancelledWith(after, () => pool.query('SELECT pg_sleep(1)')));
    expect(await running('SELECT pg_sleep(1)'), 'the second statement runs').to.equal(true);
    before.cancel();
    expect(await next).to.equal('done');
  });

  it("cancels a statement sent on a connection taken from the pool, as a transaction's", async () => {
    const work = new Work();
    const client = await pool.connect();
    try {
      const sleep = failure(cancelledWith(work, () => client.query('SELECT pg_sleep(40)')));
      expect(await running('SELECT pg_sleep(40)'), 'the statement runs').to.equal(true);
      work.cancel();
      expect(await sleep).to.equal('cancelled');
    } finally {
      client.release();
    }
  });
});
