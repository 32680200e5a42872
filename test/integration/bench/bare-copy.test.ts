/** @module The bench's bare COPY baseline on a real PostgreSQL: the loaded rows copied into a schema with no trigger of its own. */
import { expect } from 'chai';
import pino from 'pino';
import { bareCopyOf } from '../../../bench/bare-copy.lib.ts';
import type { Pool } from '../../../src/db/connection/pool.ts';
import { createMigratedDatabase, queryOnce } from '../../support/postgres.ts';

describe('bench bare COPY baseline (PostgreSQL)', () => {
  let db: { url: string; pool: Pool; drop(): Promise<void> };
  before(async function () {
    this.timeout(120_000);
    db = await createMigratedDatabase('loaded');
  });
  after(() => db.drop());

  it('copies every row, derived ones included, into tables whose own triggers are dropped, not disabled', async function () {
    this.timeout(120_000);
    // key_block_count is derived by key_blocks' statement trigger, which captures the rows in a transition table
    await db.pool.query(
      `INSERT INTO key_blocks (height, hash, prev_hash, prev_key_hash, beneficiary, miner, time_ms, data)
       SELECT h, 'kh_' || h, 'kh_p', 'kh_p', 'ak_b', 'ak_m', 0, '{}' FROM generate_series(0, 4) AS h`,
    );
    const copy = await bareCopyOf(db.url, 'loaded', 'bare', () => 0, pino({ level: 'silent' }), [
      [0, 1],
      [2, 4],
    ]);
    expect(copy.rows).to.be.at.least(6);
    const one = async (sql: string): Promise<unknown> => Object.values((await queryOnce(db.url, sql)).rows[0]!)[0];
    expect(await one('SELECT count(*)::int FROM bare.key_blocks')).to.equal(5);
    // the copied count, not the copied count plus the count a trigger derived again
    expect(await one('SELECT n FROM bare.key_block_count')).to.equal(await one('SELECT n FROM loaded.key_block_count'));
    // a disabled trigger would still be listed (and still capture its transition tables)
    const triggers = (internal: boolean): Promise<unknown> =>
      one(`SELECT count(*)::int FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
            WHERE c.relnamespace = 'bare'::regnamespace AND t.tgisinternal = ${internal}`);
    expect(await triggers(false)).to.equal(0);
    // the foreign keys' own triggers are left, as (c) has them
    expect(await triggers(true)).to.be.greaterThan(0);
    expect(
      await one("SELECT count(*)::int FROM pg_trigger WHERE tgrelid = 'loaded.key_blocks'::regclass"),
    ).to.be.greaterThan(0);
  });
});
