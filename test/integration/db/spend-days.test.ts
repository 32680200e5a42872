/**
 * @module spend_days (migration 1061) kept by its triggers from spend_heights as the `spends` area writes it: new
 * heights, a continued generation's spends added to its height's day (an INSERT … ON CONFLICT DO UPDATE), the height
 * cascade of a fork and the area's replacement of stored heights; the days are always the heights' rows summed.
 */
import { expect } from 'chai';
import type { SpendDayTotal } from '../../../src/chain/spend-days.ts';
import { createPool, type Pool } from '../../../src/db/connection/pool.ts';
import { deleteFrom } from '../../../src/db/writes/heights.ts';
import { addSpendHeights, deleteSpendHeights } from '../../../src/db/writes/spend-heights.ts';
import { createTestDatabase } from '../../support/postgres.ts';
import { silent } from '../indexer/support/harness.ts';

const BIG = 2n ** 70n + 3n;
const DAY = 20_454;

describe('spend_days kept from spend_heights (migration 1061)', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let pool: Pool;
  /** what the area wrote, as (height, day) → totals: the oracle the kept days are compared with */
  const written = new Map<string, SpendDayTotal>();

  before(async () => {
    db = await createTestDatabase({ migrated: 'mdw' });
    pool = createPool({ databaseUrl: db.url, schema: 'mdw', max: 1 }, silent);
    for (const height of [10, 11, 12])
      await pool.query(
        `INSERT INTO key_blocks (height, hash, prev_hash, prev_key_hash, beneficiary, miner, time_ms, data)
         VALUES ($1, $2, '', '', '', '', 0, '{}')`,
        [height, `kh_${height}`],
      );
  });
  after(async () => {
    await pool?.end();
    await db?.drop();
  });

  async function add(totals: SpendDayTotal[]): Promise<void> {
    await addSpendHeights(pool, totals);
    for (const t of totals) {
      const before = written.get(`${t.height} ${t.day}`);
      written.set(`${t.height} ${t.day}`, {
        ...t,
        count: t.count + (before?.count ?? 0),
        amount: t.amount + (before?.amount ?? 0n),
      });
    }
  }
  function forget(keep: (t: SpendDayTotal) => boolean): void {
    for (const [key, t] of written) if (!keep(t)) written.delete(key);
  }
  /** the kept days equal the written rows summed per day (a day without spends has no row) */
  async function expectDays(): Promise<void> {
    const sums = new Map<number, { day: number; count: string; amount: string }>();
    for (const t of [...written.values()].sort((a, b) => a.day - b.day)) {
      const d = sums.get(t.day);
      sums.set(t.day, {
        day: t.day,
        count: String(BigInt(d?.count ?? 0) + BigInt(t.count)),
        amount: String(BigInt(d?.amount ?? 0) + t.amount),
      });
    }
    const { rows } = await pool.query('SELECT day, count, amount FROM spend_days ORDER BY day');
    expect(rows).to.deep.equal([...sums.values()]);
    const heights = await pool.query('SELECT height, day, count, amount FROM spend_heights ORDER BY height, day');
    expect(heights.rows.map((r) => `${r.height} ${r.day} ${r.count} ${r.amount}`)).to.deep.equal(
      [...written.values()]
        .sort((a, b) => a.height - b.height || a.day - b.day)
        .map((t) => `${t.height} ${t.day} ${t.count} ${t.amount}`),
    );
  }

  it('adds new heights, and a continued generation to its day, exactly past 2^53', async () => {
    await add([
      { height: 10, day: DAY, count: 2, amount: BIG },
      { height: 10, day: DAY + 1, count: 1, amount: 5n },
      { height: 11, day: DAY + 1, count: 1, amount: 7n },
    ]);
    await expectDays();
    // the stored top generation's new micro blocks: one day it had, one it had not
    await add([
      { height: 11, day: DAY + 1, count: 3, amount: BIG },
      { height: 11, day: DAY + 2, count: 1, amount: 0n },
    ]);
    await expectDays();
  });

  it('takes back the heights a fork deletes, and those the area derives again', async () => {
    await add([{ height: 12, day: DAY + 2, count: 1, amount: 9n }]);
    await deleteFrom(pool, 11);
    forget((t) => t.height < 11);
    await expectDays();
    await deleteSpendHeights(pool, 10, 10);
    forget(() => false);
    await expectDays();
    expect((await pool.query('SELECT * FROM spend_days')).rows).to.deep.equal([]);
  });
});
