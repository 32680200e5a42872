/** @module sync_state helpers on a real PostgreSQL: which heights are missing, and the re-derive mark. */
import { expect } from 'chai';
import type { Pool } from '../../../src/db/connection/pool.ts';
import { lowestMissing, missingHeights, rederiveMark } from '../../../src/db/queries/sync-state.ts';
import { markStaleAbove, moveMark } from '../../../src/db/writes/sync-state.ts';
import { createMigratedDatabase } from '../../support/postgres.ts';

describe('sync state (PostgreSQL)', () => {
  let db: { pool: Pool; drop(): Promise<void> };
  let pool: Pool;
  before(async () => {
    db = await createMigratedDatabase('mdw');
    pool = db.pool;
  });
  after(() => db.drop());

  const store = (heights: number[]): Promise<unknown> =>
    pool.query(
      `INSERT INTO key_blocks (height, hash, prev_hash, prev_key_hash, beneficiary, miner, time_ms, data)
     SELECT h, 'kh_' || h, 'kh_p', 'kh_p', 'ak_b', 'ak_m', 0, '{}' FROM unnest($1::int[]) AS h`,
      [heights],
    );

  it('lists the missing heights of a range in order, at most `limit`', async () => {
    expect(await missingHeights(pool, 0, 9, 4)).to.deep.equal([0, 1, 2, 3]);
    await store([0, 1, 2, 5, 6, 9, 10]);
    expect(await missingHeights(pool, 0, 12, 100)).to.deep.equal([3, 4, 7, 8, 11, 12]);
    expect(await missingHeights(pool, 0, 12, 3)).to.deep.equal([3, 4, 7]);
    expect(await missingHeights(pool, 5, 6, 10)).to.deep.equal([]);
    expect(await missingHeights(pool, 7, 6, 10)).to.deep.equal([]);
    expect(await lowestMissing(pool)).to.equal(3);
  });

  it('sets the re-derive mark only below stored heights, keeps the lowest, moves and clears it', async () => {
    expect(await rederiveMark(pool)).to.equal(undefined);
    expect(await markStaleAbove(pool, 10)).to.equal(undefined); // nothing stored above 10
    expect(await markStaleAbove(pool, 6)).to.equal(7);
    expect(await markStaleAbove(pool, 8)).to.equal(7); // a mark further up does not raise it
    expect(await markStaleAbove(pool, 3)).to.equal(4);
    expect(await moveMark(pool, 6)).to.equal(7);
    expect(await rederiveMark(pool)).to.equal(7);
    expect(await moveMark(pool, 10)).to.equal(null);
    expect(await rederiveMark(pool)).to.equal(undefined);
  });
});
