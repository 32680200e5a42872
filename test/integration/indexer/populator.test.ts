/** @module The populator against a devnode: full sync equals the node, following, forks of depth 1, 5 and K+3. */
import { expect } from 'chai';
import prom from 'prom-client';
import { startPopulator, type Populator } from '../../../src/indexer/sync/populator.ts';
import { startHarness, silent, storedTopHash, verifyClean, waitFor, type Harness } from './support/harness.ts';

describe('populator (devnode + PostgreSQL)', function () {
  this.timeout(120_000); // a full verify also asks the node for the state at the top (issue 58)
  let h: Harness;
  let populator: Populator | undefined;
  let registry: prom.Registry;

  before(async () => {
    h = await startHarness(20, 'populator-test');
    registry = new prom.Registry();
    // batches end at BATCH_SIZE (10) generations or, sooner, at 15 transactions
    populator = await startPopulator({ cfg: h.config({ BATCH_TRANSACTIONS: '15' }), log: silent, registry });
    await populator.synced();
  });
  after(async () => {
    await populator?.stop();
    await h.close();
  });

  async function rollbackCount(): Promise<number> {
    return (
      (await registry.getMetricsAsJSON()).find((m) => m.name === 'mdw_indexer_rollbacks_total')?.values[0]?.value ?? 0
    );
  }

  async function converged(): Promise<void> {
    await waitFor(
      'the populator to reach the node top',
      async () => (await storedTopHash(h, 'mdw'))?.hash === h.devnode.chain.top.hash,
    );
  }

  it('loads every height so that a full verify is clean, and reports progress', async () => {
    await verifyClean(h);
    const [state] = await h.query<{ top_height: number; status: string; node_height: number }>(
      'mdw',
      'SELECT top_height, status, node_height FROM sync_state',
    );
    expect(state).to.include({ top_height: h.devnode.height(), status: 'synced', node_height: h.devnode.height() });
    const metrics = await registry.getMetricsAsJSON();
    const value = (name: string): number | undefined => metrics.find((m) => m.name === name)?.values[0]?.value;
    expect(value('mdw_sync_height')).to.equal(h.devnode.height());
    expect(value('mdw_sync_lag_blocks')).to.equal(0);
    const [counts] = await h.query<{ n: number }>('mdw', 'SELECT count(*)::int AS n FROM transactions');
    expect(counts!.n).to.be.greaterThan(100);
    // every height and transaction counted once although batches were cut short by their transactions
    expect(value('mdw_indexer_generations_total')).to.equal(h.devnode.height() + 1);
    expect(value('mdw_indexer_transactions_total')).to.equal(counts!.n);
    expect(value('mdw_indexer_batches_total')).to.be.greaterThan(Math.ceil((h.devnode.height() + 1) / 10));
    for (const table of [
      'name_events',
      'name_pointers',
      'oracle_events',
      'oracle_queries',
      'oracle_responses',
      'contracts',
      'contract_calls',
      'channel_events',
    ]) {
      const [row] = await h.query<{ n: number }>('mdw', `SELECT count(*)::int AS n FROM ${table}`);
      expect(row!.n, table).to.be.greaterThan(0);
    }
    const functions = await h.query<{ f: string }>(
      'mdw',
      'SELECT DISTINCT function AS f FROM contract_calls ORDER BY 1',
    );
    expect(functions.map((r) => r.f)).to.include.members(['init', 'set']);
  });

  it('follows new micro blocks and key blocks', async () => {
    await h.devnode.mineKeyBlock();
    await h.devnode.mineKeyBlock();
    await converged();
    // the next test's -v --full checks what was followed: its fork of depth 1 replaces the newer height only
  });

  for (const depth of [1, 5, 8]) {
    it(`converges after a fork of depth ${depth} (window K = 5), rolling names and oracles back`, async () => {
      const replaced = (
        await h.query<{ hash: string }>('mdw', 'SELECT hash FROM key_blocks WHERE height > $1', [
          h.devnode.height() - depth,
        ])
      ).map((r) => r.hash);
      const rollbacks = await rollbackCount();
      await h.devnode.fork(depth);
      await converged();
      expect(await rollbackCount()).to.equal(rollbacks + 1);
      const left = await h.query('mdw', 'SELECT hash FROM key_blocks WHERE hash = ANY($1)', [replaced]);
      expect(left, 'replaced key blocks still stored').to.deep.equal([]);
      // derived state equals a fresh load of the same chain: -v --full loads heights 0 to the top into a scratch schema
      // and compares every derived table with it (name and oracle events and state, contracts, channels, the account
      // index by the ids' keys)
      await verifyClean(h);
    });
  }

  it('deletes stored heights the node no longer has (a shorter chain)', async () => {
    const top = h.devnode.height();
    await h.query(
      'mdw',
      `INSERT INTO key_blocks (height, hash, prev_hash, prev_key_hash, beneficiary, miner, time_ms, data)
                          SELECT height + 1, 'kh_gone', hash, hash, beneficiary, miner, time_ms, data FROM key_blocks WHERE height = $1`,
      [top],
    );
    await waitFor(
      'the extra height to be deleted',
      async () => (await h.query('mdw', `SELECT 1 FROM key_blocks WHERE hash = 'kh_gone'`)).length === 0,
    );
    await converged();
    await verifyClean(h);
  });

  it('lets a second populator of the same schema wait for the writer lock, and stops it cleanly while waiting', async () => {
    const second = await startPopulator({ cfg: h.config(), log: silent, registry: new prom.Registry() });
    await h.devnode.mineKeyBlock();
    await converged();
    // what the first wrote while the second waited is what the node has
    await verifyClean(h);
    let synced = false;
    void second.synced().then(() => {
      synced = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(synced, 'the second populator never got the lock').to.equal(false);
    await second.stop();
  });
});
