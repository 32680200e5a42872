/**
 * @module Migration 1156's hand-over of name_state (db/writes/name-state.ts): a batch above every stored name event
 * takes its names' rows out and the insert trigger of name_events leaves the writer's events alone; a batch below
 * stored events, one continuing a generation (after one that took the rows, in the same transaction) and a contract's
 * AENS events (`local_idx`) keep the trigger's refresh, which the rows then equal.
 */
import { expect } from 'chai';
import { withTransaction, type Pool, type PoolClient } from '../../../src/db/connection/pool.ts';
import { takeNameStates } from '../../../src/db/writes/name-state.ts';
import { createMigratedDatabase } from '../../support/postgres.ts';

/** insertEvent writes one name event of `name` (`local_idx` for a contract's) as the writer's COPY would. */
const insertEvent = (db: PoolClient, name: string, height: number, kind: string, localIdx: number | null = null) =>
  db.query(
    `INSERT INTO name_events (name_hash, name, height, micro_index, tx_index, tx_hash, kind, owner, expires_at,
                              auction_end, local_idx)
     VALUES ($1, $2, $3, 0, 0, $4, $5, $6, $3 + 100, NULL, $7)`,
    [
      `nm_${name}`,
      kind === 'claim' ? `${name}.chain` : null,
      height,
      `th_${name}_${height}`,
      kind,
      `ak_${height}`,
      localIdx,
    ],
  );

const row = async (db: PoolClient | Pool, name: string): Promise<unknown> =>
  (
    await db.query<{ r: unknown }>(
      `SELECT json_build_object('tx', tx_hash, 'created', created_at_height, 'owner', owner, 'kind', kind) AS r
         FROM name_state WHERE name_hash = $1`,
      [`nm_${name}`],
    )
  ).rows[0]?.r;

describe('name_state kept by the writer for a batch above every stored name event (migration 1156)', () => {
  let db: Awaited<ReturnType<typeof createMigratedDatabase>>;
  before(async () => {
    db = await createMigratedDatabase('mdw', 2);
    await withTransaction(db.pool, async (c) => {
      await insertEvent(c, 'a', 10, 'claim');
      await insertEvent(c, 'b', 12, 'claim');
    });
  });
  after(async () => {
    await db?.drop();
  });

  it("takes the rows out above every stored event, and the trigger leaves the writer's events to it", async () => {
    await withTransaction(db.pool, async (c) => {
      const taken = await takeNameStates(c, ['nm_a'], 20);
      expect([...taken!.entries()]).to.deep.equal([
        ['nm_a', { name: 'a.chain', txHash: 'th_a_10', createdAtHeight: 10, auctionEndHeight: 10 }],
      ]);
      await insertEvent(c, 'a', 20, 'update');
      // the writer has not written the row yet: the trigger left it out
      expect(await row(c, 'a')).to.equal(undefined);
      throw new Error('rolled back');
    }).catch((err: Error) => expect(err.message).to.equal('rolled back'));
    expect(await row(db.pool, 'a')).to.deep.equal({ tx: 'th_a_10', created: 10, owner: 'ak_10', kind: 'claim' });
  });

  it('leaves a batch below a stored event, a continued generation and a contract’s events to the refresh', async () => {
    await withTransaction(db.pool, async (c) => {
      // below b's event at 12: nothing taken, and the trigger refreshes
      expect(await takeNameStates(c, ['nm_b'], 11)).to.equal(undefined);
      await insertEvent(c, 'b', 11, 'transfer');
      expect(await row(c, 'b')).to.deep.equal({ tx: 'th_b_12', created: 12, owner: 'ak_12', kind: 'claim' });
      // a batch that took its rows, then one continuing a generation in the same transaction
      expect(await takeNameStates(c, ['nm_a'], 30)).to.not.equal(undefined);
      expect(await takeNameStates(c, ['nm_b'], undefined)).to.equal(undefined);
      await insertEvent(c, 'b', 31, 'transfer');
      expect(await row(c, 'b')).to.deep.equal({ tx: 'th_b_12', created: 12, owner: 'ak_31', kind: 'transfer' });
      // a contract's AENS event after the writer took the rows: refreshed
      expect(await takeNameStates(c, ['nm_b'], 40)).to.not.equal(undefined);
      await insertEvent(c, 'b', 40, 'update', 0);
      expect(await row(c, 'b')).to.deep.equal({ tx: 'th_b_12', created: 12, owner: 'ak_40', kind: 'update' });
    });
  });
});
