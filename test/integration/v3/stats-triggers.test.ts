/**
 * @module The per-interval counts and miners' totals of migration 1004 stay equal to a
 * recount of the per-height rows after any inserts and deletes: deletes of the top (a fork) and of
 * heights in the middle (a -H reload), and the heights written again.
 */
import { expect } from 'chai';
import { createMigratedDatabase } from '../../support/postgres.ts';

const SCHEMA = 'mdw_stats_triggers';
const DAY_MS = 86_400_000;
/** 2026-01-28: the heights below cross a month's end and a week's (Thursday) start */
const FIRST_DAY = 20481;

describe('statistics triggers (real PostgreSQL)', () => {
  let db: Awaited<ReturnType<typeof createMigratedDatabase>>;
  before(async () => {
    db = await createMigratedDatabase(SCHEMA);
  });
  after(async () => {
    await db?.drop();
  });

  /** writeHeights stores key blocks and their per-height statistics rows, as a batch's derivation would. */
  async function writeHeights(heights: number[], salt: number): Promise<void> {
    await db.pool.query(
      `INSERT INTO key_blocks (height, hash, prev_hash, prev_key_hash, beneficiary, miner, time_ms, data)
       SELECT h, 'kh_' || h || '_' || $2::int, 'kh_p', 'kh_p', 'ak_b', 'ak_m', $3::bigint * (${FIRST_DAY} + h / 10), '{}'
         FROM unnest($1::int[]) AS h`,
      [heights, salt, DAY_MS],
    );
    await db.pool.query(
      `INSERT INTO stats_series_counts (height, series, day, count)
       SELECT h, s, ${FIRST_DAY} + h / 10, (h * 7 + $2::int) % 5 + 1 FROM unnest($1::int[]) AS h,
              unnest(ARRAY['transactions', 'blocks:key', 'transactions:SpendTx']) AS s`,
      [heights, salt],
    );
    await db.pool.query(
      `INSERT INTO stats_miner_rewards (height, miner, reward)
       SELECT h, 'ak_miner' || ((h + $2::int) % 3), 100000000000000000000 + h FROM unnest($1::int[]) AS h`,
      [heights, salt],
    );
    await db.pool.query(
      `INSERT INTO stats_active_accounts (interval_by, start, account, height)
       SELECT i.by, i.start, (h * 13 + $2::int) % 17, min(h)
         FROM unnest($1::int[]) AS h
        CROSS JOIN LATERAL (VALUES ('day', ${FIRST_DAY} + h / 10), ('week', (${FIRST_DAY} + h / 10) / 7),
                                   ('month', stats_month_of(${FIRST_DAY} + h / 10))) i(by, start)
        GROUP BY 1, 2, 3
       ON CONFLICT DO NOTHING`,
      [heights, salt],
    );
  }

  /** recounted: stats_intervals as the per-height rows say it should be. */
  async function expectRecounted(): Promise<void> {
    const stored = await db.pool.query(
      `SELECT series, interval_by, start, count::text FROM stats_intervals ORDER BY 1, 2, 3`,
    );
    const recount = await db.pool.query(
      `SELECT * FROM (
         SELECT series, i.by AS interval_by, i.start, sum(count)::text AS count
           FROM stats_series_counts
          CROSS JOIN LATERAL (VALUES ('day', day), ('week', day / 7), ('month', stats_month_of(day))) i(by, start)
          GROUP BY 1, 2, 3
         UNION ALL
         SELECT 'active_accounts', interval_by, start, count(*)::text FROM stats_active_accounts GROUP BY 2, 3) x
        ORDER BY 1, 2, 3`,
    );
    expect(stored.rows).to.deep.equal(recount.rows);
    const miners = await db.pool.query(`SELECT miner, total_reward::text FROM stats_miners ORDER BY 1`);
    const minersRecount = await db.pool.query(
      `SELECT miner, sum(reward)::text AS total_reward FROM stats_miner_rewards GROUP BY 1 ORDER BY 1`,
    );
    expect(miners.rows).to.deep.equal(minersRecount.rows);
  }

  it('equal a recount after writes, a fork, a -H reload of middle heights and a shorter chain', async () => {
    const range = (a: number, b: number): number[] => Array.from({ length: b - a + 1 }, (_, i) => a + i);
    await writeHeights(range(0, 99), 0);
    await expectRecounted();
    const months = await db.pool.query(
      `SELECT DISTINCT start FROM stats_intervals WHERE interval_by = 'month' ORDER BY 1`,
    );
    expect(months.rows.length, 'the heights span two months').to.equal(2);
    // a fork: the top 30 heights replaced by others
    await db.pool.query('DELETE FROM key_blocks WHERE height >= 70');
    await expectRecounted();
    await writeHeights(range(70, 119), 1);
    await expectRecounted();
    // a -H reload: heights in the middle deleted and written again (with other contents)
    await db.pool.query('DELETE FROM key_blocks WHERE height IN (5, 33, 34, 35, 61)');
    await expectRecounted();
    await writeHeights([5, 33, 34, 35, 61], 2);
    await expectRecounted();
    // a shorter chain: everything above 40 gone, no interval left with a zero count
    await db.pool.query('DELETE FROM key_blocks WHERE height > 40');
    await expectRecounted();
    const zeros = await db.pool.query('SELECT count(*)::int AS n FROM stats_intervals WHERE count = 0');
    expect(zeros.rows[0].n).to.equal(0);
    await db.pool.query('DELETE FROM key_blocks');
    expect((await db.pool.query('SELECT count(*)::int AS n FROM stats_intervals')).rows[0].n).to.equal(0);
    expect((await db.pool.query('SELECT count(*)::int AS n FROM stats_miners')).rows[0].n).to.equal(0);
  });
});
