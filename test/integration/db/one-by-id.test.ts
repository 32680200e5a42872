/**
 * @module The reads of one channel and one oracle by id filter to that id: with two of each stored, each id gives
 * its own row and an unknown id none. (They once edited the list statement's text with `.replace`, which a changed
 * list statement turns into the whole list, silently.)
 */
import { expect } from 'chai';
import { channelId, oracleId } from '../../../src/chain/derived-ids.ts';
import type { Pool } from '../../../src/db/connection/pool.ts';
import { channelById, channelsPage } from '../../../src/db/queries/channels.ts';
import { oracleState, oraclesPage } from '../../../src/db/queries/oracles.ts';
import { createMigratedDatabase } from '../../support/postgres.ts';
import { BOB, buildFixture, CAROL, CHANNEL_CLOSED, CHANNEL_OPEN, ORACLE, type ChainFixture } from '../api/fixture.ts';

describe('one channel, one oracle by id (PostgreSQL)', function () {
  this.timeout(120_000);
  let db: { pool: Pool; drop(): Promise<void> };
  let fixture: ChainFixture;
  const SECOND_ORACLE = oracleId(BOB);

  before(async () => {
    db = await createMigratedDatabase('one_by_id');
    fixture = await buildFixture(db.pool);
    // a second oracle, registered by Bob at the fixture's second spend (the fixture registers one)
    const at = fixture.tx('spend-2');
    await db.pool.query(
      `INSERT INTO oracle_events (oracle_id, height, micro_index, tx_index, tx_hash, kind, expires_at, query_fee, query_format, response_format, abi_version)
       VALUES ($1, $2, $3, $4, $5, 'register', 900, 7, 'string', 'string', '0')`,
      [SECOND_ORACLE, at.height, at.micro, at.index, at.hash],
    );
  });
  after(async () => {
    await db?.drop();
  });

  it('lists both channels, and reads each by its id', async () => {
    const all = await channelsPage(db.pool, undefined, { walk: 'forward', from: undefined, n: 10 });
    expect(all.map((c) => c.channelId).sort()).to.deep.equal([CHANNEL_CLOSED, CHANNEL_OPEN].sort());
    const closed = await channelById(db.pool, CHANNEL_CLOSED);
    const open = await channelById(db.pool, CHANNEL_OPEN);
    expect([closed?.channelId, closed?.active]).to.deep.equal([CHANNEL_CLOSED, false]);
    expect([open?.channelId, open?.active]).to.deep.equal([CHANNEL_OPEN, true]);
    expect(await channelById(db.pool, channelId(CAROL, 1n, BOB))).to.equal(undefined);
  });

  it('lists both oracles, and reads each by its id', async () => {
    const all = await oraclesPage(db.pool, { top: 0 }, { walk: 'forward', from: undefined, n: 10 });
    expect(all.map((o) => o.oracleId).sort()).to.deep.equal([ORACLE, SECOND_ORACLE].sort());
    const first = await oracleState(db.pool, ORACLE);
    const second = await oracleState(db.pool, SECOND_ORACLE);
    expect([first?.oracleId, first?.registerTxHash]).to.deep.equal([
      ORACLE,
      fixture.txs.find((t) => t.tx.type === 'OracleRegisterTx')!.hash,
    ]);
    expect([second?.oracleId, second?.registerTxHash, second?.expiresAt]).to.deep.equal([
      SECOND_ORACLE,
      fixture.tx('spend-2').hash,
      900,
    ]);
    expect(await oracleState(db.pool, oracleId(CAROL))).to.equal(undefined);
  });
});
