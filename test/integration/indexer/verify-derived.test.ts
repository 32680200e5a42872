/** @module -v --full re-derives every derived row from the node and finds each corruption of one. */
import { expect } from 'chai';
import { idOfKey } from '../../../src/chain/id-key.ts';
import prom from 'prom-client';
import { startPopulator } from '../../../src/indexer/sync/populator.ts';
import { verifyChain } from '../../../src/indexer/maintenance/verify.ts';
import { emptyScratch } from '../../../src/indexer/maintenance/verify-scratch.ts';
import { createPool } from '../../../src/db/connection/pool.ts';
import { WriterLock } from '../../../src/db/schema/writer-lock.ts';
import { DERIVED_AREAS } from '../../../src/indexer/derived/derived-areas.ts';
import { startHarness, silent, type Harness } from './support/harness.ts';
import { FULL_VERIFY_BATCH } from '../../support/verify-batch.ts';
import { freshContents, schemaContents } from '../../support/schema-contents.ts';

describe('verify --full of derived rows (account index, fees, names, …)', function () {
  this.timeout(120_000);
  let h: Harness;
  // 60 generations, not 125: each -v --full re-derives the whole chain, and 60 still hold a name's events and token
  // balances that later events moved (both asserted below); FEE_HEIGHT is a height with transactions, STATS_FROM one
  // below the top whose statistics a pending area leaves out
  const GENERATIONS = 60;
  const FEE_HEIGHT = 55;
  const INDEX_HEIGHT = 30;
  const STATS_FROM = 51;

  before(async () => {
    h = await startHarness(GENERATIONS, 'verify-derived');
    const populator = await startPopulator({ cfg: h.config(), log: silent, registry: new prom.Registry() });
    await populator.synced();
    await populator.stop();
  });
  after(async () => {
    await h.close();
  });

  async function verify(opts: { heights?: number[] } = {}): Promise<{ lines: string[]; differences: number }> {
    const lines: string[] = [];
    // its scratch loaded in batches of 100 (FULL_VERIFY_BATCH), the populator's of 10: each of the file's five runs
    // pays a batch's steps once, not six times
    const report = await verifyChain(
      { cfg: h.config(FULL_VERIFY_BATCH), log: silent, out: (l) => lines.push(l) },
      { ...opts, full: true },
    );
    return { lines, differences: report.differences };
  }

  it('finds nothing in a populated database: a re-derivation from the node equals what the populator wrote', async () => {
    expect(await verify()).to.deep.equal({ lines: [], differences: 0 });
    // and leaves its scratch schema as a new one, empty and migrated, for the next run to load without migrating
    expect(await schemaContents(h.db.url, 'mdw_verify')).to.deep.equal(await freshContents(h.db.url, 'mdw'));
  });

  it('leaves the scratch to another -v --full loading it (its writer lock held), which empties it once it compared', async () => {
    const pool = createPool({ databaseUrl: h.db.url, schema: 'mdw', max: 2 }, silent);
    const loading = new WriterLock(pool, 'mdw_verify');
    const progress = async (): Promise<unknown[]> => h.query('mdw_verify', 'SELECT heights FROM reload_progress');
    try {
      expect(await loading.tryAcquire()).to.equal(true);
      await h.query(
        'mdw_verify',
        `INSERT INTO reload_progress (heights, phase, done_through) VALUES ('0-${GENERATIONS}', 'listed', 9)`,
      );
      expect(await emptyScratch(pool, h.db.url, 'mdw_verify')).to.equal(false);
      expect(await progress()).to.deep.equal([{ heights: `0-${GENERATIONS}` }]);
      await loading.release();
      expect(await emptyScratch(pool, h.db.url, 'mdw_verify')).to.equal(true);
      expect(await progress()).to.deep.equal([]);
    } finally {
      await loading.release();
      await pool.end();
    }
  });

  it('skips, and says so, the tables of an area still pending (balances just added by migration 1007, statistics)', async () => {
    // every table an area names is one of the schema's, so none is compared by mistake under a misspelt name
    const tables = await h.query<{ table_name: string }>(
      'mdw',
      "SELECT table_name FROM information_schema.tables WHERE table_schema = 'mdw'",
    );
    for (const [area, derive] of DERIVED_AREAS)
      expect(
        tables.map((t) => t.table_name),
        area,
      ).to.include.members([...derive.tables]);
    // as after migration 1007 on a loaded database: no balances yet, the whole chain waits for the balances area; and
    // the statistics of the last heights not derived yet
    const [{ top }] = (await h.query<{ top: number }>('mdw', 'SELECT max(height) AS top FROM key_blocks')) as [
      { top: number },
    ];
    const balances = await h.query('mdw', 'DELETE FROM account_balances RETURNING *');
    const stats = await h.query('mdw', 'DELETE FROM stats_generations WHERE height >= $1 RETURNING *', [STATS_FROM]);
    expect(balances.length * stats.length).to.be.greaterThan(0);
    await h.query(
      'mdw',
      "INSERT INTO derive_backfill (area, next_height, to_height) VALUES ('balances', 0, $1), ('stats', $2, $1)",
      [top, STATS_FROM],
    );
    // and a difference in a table of no pending area, which the same pass still finds
    await h.query('mdw', 'UPDATE transactions SET fee = fee + 1 WHERE height = $1', [FEE_HEIGHT]);
    try {
      const { lines, differences } = await verify();
      const found = lines.filter((l) => l.startsWith('derived transactions: '));
      expect(found.some((l) => l.startsWith('derived transactions: row only in the database'))).to.equal(true);
      expect(differences).to.equal(found.length);
      expect(lines.filter((l) => !found.includes(l))).to.deep.equal([
        `derived areas not compared: the populator is still deriving balances (heights 0-${top}), ` +
          `stats (heights ${STATS_FROM}-${top}) from the stored rows`,
        `derived rows of the balances area not compared: the populator is still deriving heights 0-${top} ` +
          '(account_balances, account_wealth, account_holders, account_balance_changes)',
        `derived rows of the stats area not compared: the populator is still deriving heights ${STATS_FROM}-${top} ` +
          '(stats_generations, stats_series_counts, stats_accounts, stats_active_accounts, stats_intervals, ' +
          'stats_miner_rewards, stats_miners)',
        'state not compared for AE balances: the populator is still deriving them',
      ]);
    } finally {
      await h.query('mdw', 'UPDATE transactions SET fee = fee - 1 WHERE height = $1', [FEE_HEIGHT]);
      await h.query('mdw', 'DELETE FROM derive_backfill');
      for (const [table, rows] of [
        ['account_balances', balances],
        ['stats_generations', stats],
      ] as const)
        await h.query('mdw', `INSERT INTO ${table} SELECT * FROM json_populate_recordset(NULL::${table}, $1)`, [
          JSON.stringify(rows),
        ]);
    }
    // the next test's pass, with nothing pending, finds no difference but those it plants
  });

  it("finds each of a fee changed at one height, an account-index row deleted and a name's owner changed, in one pass; a range that holds the height finds the fee, one that does not does not", async () => {
    const changed = await h.query('mdw', 'UPDATE transactions SET fee = fee + 1 WHERE height = $1 RETURNING hash', [
      FEE_HEIGHT,
    ]);
    expect(changed.length).to.be.greaterThan(0);
    const [row] = await h.query<Record<string, unknown>>(
      'mdw',
      'DELETE FROM account_transactions WHERE ctid = (SELECT ctid FROM account_transactions WHERE height = $1 LIMIT 1) RETURNING *',
      [INDEX_HEIGHT],
    );
    expect(row).to.not.equal(undefined);
    const [event] = await h.query<{
      name_hash: string;
      owner: string;
      height: number;
      micro_index: number;
      tx_index: number;
    }>('mdw', 'SELECT name_hash, owner, height, micro_index, tx_index FROM name_events ORDER BY height DESC LIMIT 1');
    const eventKey = 'name_hash = $1 AND height = $2 AND micro_index = $3 AND tx_index = $4';
    const setOwner = (owner: string): Promise<unknown> =>
      h.query('mdw', `UPDATE name_events SET owner = $5 WHERE ${eventKey}`, [
        event!.name_hash,
        event!.height,
        event!.micro_index,
        event!.tx_index,
        owner,
      ]);
    expect(event, 'the generated chain has a name').to.not.equal(undefined);
    await setOwner('ak_2QkttUgEyPixKzqXkJ4LX7ugbRjwCDWPBT4p4M2r8brjxUxUYd');
    try {
      const { lines } = await verify();
      // each corruption found in its own table's lines (and in those derived from it: fees, transfers, name counts)
      const of = (table: string): string[] => lines.filter((l) => l.startsWith(`derived ${table}: `));
      const fees = of('transactions');
      expect(fees.filter((l) => l.startsWith('derived transactions: row only in the database'))).to.have.length(
        Math.min(changed.length, 5),
      );
      expect(fees[0]).to.contain(`"height":${FEE_HEIGHT}`);
      // the row, and the account's kept count (migration 1015) that its delete took down with it: one count row
      // differs, shown from both sides
      const [index, ...others] = of('account_transactions');
      expect(others).to.deep.equal([]);
      expect(index).to.match(/^derived account_transactions: row only re-derived from the node: /);
      const counts = of('account_tx_counts');
      expect(counts).to.have.length(2);
      for (const line of counts)
        expect(line).to.match(/^derived account_tx_counts: row only (re-derived from the node|in the database): /);
      // the id stored as its number (migration 1000) is shown as the id itself
      const [key] = await h.query<{ key: Buffer }>('mdw', 'SELECT key FROM account_ids WHERE num = $1', [row!.account]);
      expect(index).to.contain(`"height":${INDEX_HEIGHT},`);
      expect(index).to.contain(`"account":"${idOfKey(key!.key)}"`);
      expect(
        of('name_events').some(
          (l) => l.startsWith('derived name_events: row only in the database') && l.includes(event!.name_hash),
        ),
      ).to.equal(true);
      expect(of('name_state').some((l) => l.startsWith('derived name_state: row only in the database'))).to.equal(true);
    } finally {
      await h.query(
        'mdw',
        `INSERT INTO account_transactions (height, micro_index, tx_index, tx_type, account, fields)
         VALUES ($1, $2, $3, $4, $5, $6)`,
        [row!.height, row!.micro_index, row!.tx_index, row!.tx_type, row!.account, row!.fields],
      );
      await setOwner(event!.owner);
    }
    try {
      // a range that holds the height finds it too; one that does not, does not, though later heights moved what the
      // range holds: a token balance whose row says the height of its account's last event is state, not history
      expect((await verify({ heights: [FEE_HEIGHT - 1, FEE_HEIGHT] })).differences).to.be.greaterThan(0);
      const [moved] = await h.query<{ height: number }>(
        'mdw',
        `SELECT min(height) AS height FROM aex9_events e
          WHERE height < $1 AND EXISTS (SELECT 1 FROM aex9_events l
            WHERE l.contract_id = e.contract_id AND l.account = e.account AND l.height > e.height)`,
        [FEE_HEIGHT - 1],
      );
      expect(moved?.height, 'a balance that a later event moved').to.be.a('number');
      expect(await verify({ heights: [moved!.height] })).to.deep.equal({ lines: [], differences: 0 });
    } finally {
      await h.query('mdw', 'UPDATE transactions SET fee = fee - 1 WHERE height = $1', [FEE_HEIGHT]);
    }
  });
});
