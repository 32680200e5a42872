/** @module The statistics kept in memory per stored chain: read once, dropped when the populator announces a commit, re-checked per request without a listener. */
import { expect } from 'chai';
import { setTimeout as sleep } from 'node:timers/promises';
import { StatsSource } from '../../../src/api/mdw/resources/stats-source.ts';
import type { Queryable } from '../../../src/db/connection/pool.ts';
import { notifyCommitted } from '../../../src/db/connection/notify.ts';
import { NotificationListener } from '../../../src/events/listener.ts';
import { notifyChannel } from '../../../src/db/connection/notification.ts';
import { createMigratedDatabase } from '../../support/postgres.ts';
import { silentLog } from '../api/harness.ts';

const SCHEMA = 'mdw_stats_source';
const DAY = 20454;

describe('StatsSource (real PostgreSQL, LISTEN/NOTIFY)', () => {
  let db: Awaited<ReturnType<typeof createMigratedDatabase>>;
  let queries = 0;
  let counting: Queryable;
  before(async () => {
    db = await createMigratedDatabase(SCHEMA);
    counting = {
      query: ((...args: Parameters<Queryable['query']>) => (queries++, db.pool.query(...args))) as Queryable['query'],
    };
  });
  after(async () => {
    await db?.drop();
  });

  /** addGeneration stores a key block and what it adds to the transactions series, as the populator's batch would. */
  async function addGeneration(height: number, txs: number): Promise<void> {
    await db.pool.query(
      `INSERT INTO key_blocks (height, hash, prev_hash, prev_key_hash, beneficiary, miner, time_ms, data)
       VALUES ($1::int, 'kh_' || $1::int, 'kh_p', 'kh_p', 'ak_b', 'ak_m', $2, '{}')`,
      [height, DAY * 86_400_000 + height * 180_000],
    );
    await db.pool.query(
      `INSERT INTO stats_series_counts (height, series, day, count) VALUES ($1, 'transactions', $2, $3)`,
      [height, DAY, txs],
    );
  }
  const transactions = async (source: StatsSource): Promise<bigint | undefined> =>
    (await (await source.snapshot()).series('transactions', 'day')).get(DAY);

  it('reads a series once per stored chain, and again once a commit is announced', async () => {
    const listener = new NotificationListener({ pool: db.pool, channel: notifyChannel(SCHEMA), log: silentLog });
    await listener.start();
    try {
      await addGeneration(0, 5);
      const source = new StatsSource(counting, listener);
      queries = 0;
      expect(await transactions(source)).to.equal(5n);
      expect(queries, 'the version and the series').to.equal(2);
      expect(await transactions(source)).to.equal(5n);
      expect(queries, 'from memory').to.equal(2);
      await addGeneration(1, 3);
      await notifyCommitted(db.pool, SCHEMA, { from: 1, to: 1 });
      let seen: bigint | undefined;
      for (let i = 0; i < 100 && seen !== 8n; i++) {
        await sleep(20);
        seen = await transactions(source);
      }
      expect(seen, 'after the announced commit').to.equal(8n);
      // without the listen connection every request checks the version again
      await listener.stop();
      const before = queries;
      await transactions(source);
      await transactions(source);
      expect(queries - before).to.equal(2);
    } finally {
      await listener.stop();
    }
  });

  it('reads again after a backfill batch derived statistics of stored heights, with no new block', async () => {
    const listener = new NotificationListener({ pool: db.pool, channel: notifyChannel(SCHEMA), log: silentLog });
    await listener.start();
    try {
      const source = new StatsSource(counting, listener);
      const before = (await transactions(source))!;
      // an upgrade's backfill: the statistics of stored heights come later, batch by batch
      await db.pool.query(`INSERT INTO derive_backfill (area, next_height, to_height) VALUES ('stats', 0, 1)`);
      await db.pool.query(`DELETE FROM stats_series_counts WHERE height = 0`);
      await db.pool.query(
        `INSERT INTO stats_series_counts (height, series, day, count) VALUES (0, 'transactions', $1, 15)`,
        [DAY],
      );
      await db.pool.query(`UPDATE derive_backfill SET next_height = 1 WHERE area = 'stats'`);
      await notifyCommitted(db.pool, SCHEMA, { from: 0, to: 0, derived: true });
      let seen: bigint | undefined;
      for (let i = 0; i < 100 && seen !== before + 10n; i++) {
        await sleep(20);
        seen = await transactions(source);
      }
      expect(seen, 'after the announced batch').to.equal(before + 10n);
      await db.pool.query(`DELETE FROM derive_backfill`);
    } finally {
      await listener.stop();
    }
  });

  it('without a listener, checks the version on each request and rereads only what changed', async () => {
    const source = new StatsSource(counting);
    queries = 0;
    const first = await transactions(source);
    const afterFirst = queries;
    expect(await transactions(source)).to.equal(first);
    expect(queries - afterFirst, 'the version only').to.equal(1);
    await addGeneration(2, 4);
    expect(await transactions(source)).to.equal(first! + 4n);
  });
});
