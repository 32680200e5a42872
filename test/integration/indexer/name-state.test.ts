/** @module name_state stays exactly what the per-request DISTINCT ON over name_events computed: after a sync, a fork, a -H reload, a shorter chain, and in another schema. */
import { expect } from 'chai';
import prom from 'prom-client';
import { migrate } from '../../../src/db/schema/migrator.ts';
import { startPopulator, type Populator } from '../../../src/indexer/sync/populator.ts';
import { reloadHeights } from '../../../src/indexer/maintenance/reload.ts';
import { startHarness, silent, storedTopHash, waitFor, type Harness } from './support/harness.ts';

// The oracle: the names API's state query before name_state existed, over the whole table.
const OLD_NAME_STATE = `
  WITH latest AS (
    SELECT DISTINCT ON (name_hash) name_hash, kind, owner, expires_at, pointers
      FROM name_events ORDER BY name_hash, height DESC, micro_index DESC, tx_index DESC),
  claims AS (
    SELECT DISTINCT ON (name_hash) name_hash, name, tx_hash, height
      FROM name_events WHERE kind = 'claim' AND name IS NOT NULL
     ORDER BY name_hash, height DESC, micro_index DESC, tx_index DESC)
  SELECT c.name_hash, c.name, c.tx_hash, c.height AS created_at_height,
         coalesce((SELECT max(e.auction_end) FROM name_events e
                    WHERE e.name_hash = c.name_hash AND e.height >= c.height AND e.kind IN ('claim', 'bid')),
                  c.height) AS auction_end_height,
         l.owner, l.expires_at, l.pointers, l.kind
    FROM claims c JOIN latest l USING (name_hash) ORDER BY name_hash`;
const STORED = `SELECT name_hash, name, tx_hash, created_at_height, auction_end_height, owner, expires_at, pointers, kind
                  FROM name_state ORDER BY name_hash`;
const BOGUS_OWNER = 'ak_bogusOwnerWrittenByTheTest';

describe('name_state (devnode + PostgreSQL)', function () {
  this.timeout(60_000);
  let h: Harness;
  let populator: Populator | undefined;

  before(async () => {
    h = await startHarness(40, 'name-state-test');
    populator = await startPopulator({ cfg: h.config(), log: silent, registry: new prom.Registry() });
    await populator.synced();
  });
  after(async () => {
    await populator?.stop();
    await h.close();
  });

  async function expectExact(schema = 'mdw'): Promise<void> {
    const stored = await h.query(schema, STORED);
    expect(stored.length, 'names in name_state').to.be.greaterThan(0);
    expect(stored).to.deep.equal(await h.query(schema, OLD_NAME_STATE));
  }

  async function converged(): Promise<void> {
    await waitFor(
      'the populator to reach the node top',
      async () => (await storedTopHash(h, 'mdw'))?.hash === h.devnode.chain.top.hash,
    );
  }

  /**
   * addBogusClaim stores, at `height`, the claim of a name the chain never has: only the deletion of
   * that height can take it out of name_state again (no later insert recomputes its hash).
   */
  async function addBogusClaim(height: number): Promise<void> {
    await h.query(
      'mdw',
      `INSERT INTO name_events (name_hash, name, height, micro_index, tx_index, tx_hash, kind, owner, expires_at)
                          VALUES ('nm_bogus', 'bogus.chain', $1, 99, 99, 'th_bogus', 'claim', $2, $1 + 1000)`,
      [height, BOGUS_OWNER],
    );
    expect(
      await h.query('mdw', 'SELECT 1 FROM name_state WHERE owner = $1', [BOGUS_OWNER]),
      'the insert is reflected',
    ).to.have.length(1);
  }

  it('equals the old per-request computation after a sync, with claims, updates and transfers seen', async () => {
    const kinds = (await h.query<{ kind: string }>('mdw', 'SELECT DISTINCT kind FROM name_events')).map((r) => r.kind);
    expect(kinds).to.include.members(['claim', 'update']);
    await expectExact();
  });

  it('equals it after a fork that replaced heights holding name events', async () => {
    const depth = 8;
    const [replaced] = await h.query<{ n: number }>(
      'mdw',
      'SELECT count(*)::int AS n FROM name_events WHERE height > $1',
      [h.devnode.height() - depth],
    );
    expect(replaced!.n, 'name events in the forked heights').to.be.greaterThan(0);
    await addBogusClaim(h.devnode.height());
    await h.devnode.fork(depth);
    await converged();
    expect(await h.query('mdw', 'SELECT 1 FROM name_state WHERE owner = $1', [BOGUS_OWNER])).to.deep.equal([]);
    await expectExact();
  });

  it('equals it after the node chain became shorter', async () => {
    const top = h.devnode.height();
    await h.query('mdw', 'BEGIN'); // the populator must not delete the extra height before its event is in
    await h.query(
      'mdw',
      `INSERT INTO key_blocks (height, hash, prev_hash, prev_key_hash, beneficiary, miner, time_ms, data)
                          SELECT height + 1, 'kh_gone', hash, hash, beneficiary, miner, time_ms, data FROM key_blocks WHERE height = $1`,
      [top],
    );
    await addBogusClaim(top + 1);
    await h.query('mdw', 'COMMIT');
    await waitFor(
      'the extra height to be deleted',
      async () => (await h.query('mdw', `SELECT 1 FROM key_blocks WHERE hash = 'kh_gone'`)).length === 0,
    );
    await converged();
    expect(await h.query('mdw', 'SELECT 1 FROM name_state WHERE owner = $1', [BOGUS_OWNER])).to.deep.equal([]);
    await expectExact();
  });

  it('equals it after a -H reload replaced heights (an event the node does not have disappears)', async () => {
    await populator?.stop(); // a reload waits for the populator's writer lock
    populator = undefined;
    const top = h.devnode.height();
    await addBogusClaim(top);
    await reloadHeights({ cfg: h.config(), log: silent }, [top - 1, top]);
    expect(await h.query('mdw', 'SELECT 1 FROM name_state WHERE owner = $1', [BOGUS_OWNER])).to.deep.equal([]);
    await expectExact();
  });

  it('is built by its triggers from name events written into another schema, and kept apart from it', async () => {
    await migrate({ databaseUrl: h.db.url, schema: 'other' }, silent);
    await h.query('other', 'INSERT INTO key_blocks SELECT * FROM mdw.key_blocks');
    await h.query('other', 'INSERT INTO name_events SELECT * FROM mdw.name_events');
    await expectExact('other');
    expect(await h.query('other', STORED)).to.deep.equal(await h.query('mdw', STORED));
    // a session of another schema writing here by qualified name refreshes this schema's state only
    await h.query(
      'mdw',
      `INSERT INTO other.name_events (name_hash, name, height, micro_index, tx_index, tx_hash, kind, owner)
                          VALUES ('nm_elsewhere', 'elsewhere.chain', 1, 99, 99, 'th_elsewhere', 'claim', $1)`,
      [BOGUS_OWNER],
    );
    expect(await h.query('other', 'SELECT name FROM name_state WHERE owner = $1', [BOGUS_OWNER])).to.deep.equal([
      { name: 'elsewhere.chain' },
    ]);
    expect(await h.query('mdw', 'SELECT name FROM name_state WHERE owner = $1', [BOGUS_OWNER])).to.deep.equal([]);
    await h.query('mdw', `DELETE FROM other.name_events WHERE name_hash = 'nm_elsewhere'`);
    await expectExact('other');
  });

  it("equals it for registrations a short chain seldom has, written in several statements (the refresh's walks, 1144)", async () => {
    await migrate({ databaseUrl: h.db.url, schema: 'crafted' }, silent);
    const write = (rows: readonly (readonly unknown[])[]): Promise<unknown> =>
      h.query(
        'crafted',
        `INSERT INTO name_events (name_hash, name, height, micro_index, tx_index, tx_hash, kind, owner, expires_at,
                                  auction_end)
         SELECT * FROM unnest($1::text[], $2::text[], $3::int[], $4::int[], $5::int[], $6::text[], $7::text[],
                              $8::text[], $9::int[], $10::int[])`,
        rows[0]!.map((_, i) => rows.map((r) => r[i])),
      );
    // name, position, kind, owner, expiry, auction end
    await write([
      // claimed without an auction, updated, transferred
      ['nm_plain', 'plain.chain', 10, 0, 0, 'th_p1', 'claim', 'ak_a', 50_010, null],
      ['nm_plain', null, 20, 0, 0, 'th_p2', 'update', 'ak_a', 60_020, null],
      // an auction outbid twice, the last bid's end the latest
      ['nm_auction', 'auction.chain', 10, 0, 1, 'th_a1', 'claim', 'ak_a', 50_100, 100],
      ['nm_auction', 'auction.chain', 50, 1, 0, 'th_a2', 'bid', 'ak_b', 50_150, 150],
      // an auction's registration revoked, the name claimed again without one: the old auction's end is not its own
      ['nm_again', 'again.chain', 10, 0, 2, 'th_g1', 'claim', 'ak_a', 50_500, 500],
      ['nm_again', null, 600, 0, 0, 'th_g2', 'revoke', 'ak_a', null, null],
      // events of a name whose claim is not stored, and a claim stored without its name
      ['nm_unclaimed', null, 30, 0, 0, 'th_u1', 'update', 'ak_c', 50_030, null],
      ['nm_nameless', null, 30, 0, 1, 'th_n1', 'claim', 'ak_c', 50_030, null],
    ]);
    await expectExact('crafted');
    await write([
      ['nm_plain', null, 30, 2, 0, 'th_p3', 'transfer', 'ak_b', 60_020, null],
      ['nm_auction', 'auction.chain', 120, 0, 0, 'th_a3', 'bid', 'ak_c', 50_170, 170],
      ['nm_again', 'again.chain', 800, 0, 0, 'th_g3', 'claim', 'ak_b', 50_800, null],
      // a bid of an old registration at the claim's height, before it in that height: counted, as ever
      ['nm_same', 'same.chain', 900, 0, 0, 'th_s1', 'bid', 'ak_a', 51_000, 999],
      ['nm_same', 'same.chain', 900, 0, 1, 'th_s2', 'claim', 'ak_b', 50_900, null],
      ['nm_nameless', 'nameless.chain', 40, 0, 0, 'th_n2', 'claim', 'ak_c', 50_040, null],
    ]);
    await expectExact('crafted');
    expect(
      await h.query('crafted', 'SELECT name_hash, auction_end_height FROM name_state ORDER BY name_hash'),
    ).to.deep.equal([
      { name_hash: 'nm_again', auction_end_height: 800 },
      { name_hash: 'nm_auction', auction_end_height: 170 },
      { name_hash: 'nm_nameless', auction_end_height: 40 },
      { name_hash: 'nm_plain', auction_end_height: 10 },
      { name_hash: 'nm_same', auction_end_height: 999 },
    ]);
    // the later heights deleted (a fork): each name back to its state before them
    await h.query('crafted', 'DELETE FROM name_events WHERE height >= 120');
    await expectExact('crafted');
  });
});
