/**
 * @module Migrations 1045–1048 on a schema the populator filled before them (an upgrade): their backfill builds the
 * active names' edges and the sizes below each generation exactly as the triggers and the populator keep them, and
 * `mdw -v` finds nothing to recount.
 */
import { expect } from 'chai';
import { migrate } from '../../../src/db/migrator.ts';
import { verifyChain } from '../../../src/indexer/maintenance/verify.ts';
import { populateToTop } from '../../support/populate.ts';
import { startHarness, silent, type Harness } from '../indexer/support/harness.ts';

const MIGRATIONS = [
  '1045_name_counts',
  '1046_generation_sizes',
  '1047_account_transactions_multi_field',
  '1048_name_state_deactivation',
];
const KEPT = {
  edges: 'SELECT owner, height, expiring, activating FROM name_count_edges ORDER BY owner, height',
  sizes: 'SELECT height, first_txi, size_before FROM generation_txis ORDER BY height',
};

describe('migrations 1045–1048 on a populated schema', function () {
  this.timeout(180_000);
  let h: Harness;

  before(async () => {
    h = await startHarness(40, 'kept-flat-migrations');
    await populateToTop(h.config());
  });
  after(async () => {
    await h?.close();
  });

  it('build on upgrade what the populator keeps, and verify finds no difference', async () => {
    const kept = { edges: await h.query('mdw', KEPT.edges), sizes: await h.query('mdw', KEPT.sizes) };
    expect(kept.edges.length, 'active names').to.be.above(0);
    expect(kept.sizes.length, 'generations').to.be.above(40);
    // the schema as before the migrations: their objects gone, their names not applied
    await h.query('mdw', 'DROP INDEX name_state_deactivation');
    await h.query('mdw', 'DROP INDEX account_transactions_multi_field');
    await h.query('mdw', 'ALTER TABLE generation_txis DROP COLUMN size_before');
    await h.query('mdw', 'DROP TABLE name_count_edges');
    await h.query('mdw', 'DROP FUNCTION name_count_edges_apply() CASCADE');
    await h.query('mdw', 'DROP FUNCTION name_count_edges_of(name_state)');
    await h.query('mdw', 'DELETE FROM mdw_migrations WHERE name = ANY($1)', [MIGRATIONS]);
    expect(await migrate({ databaseUrl: h.db.url, schema: 'mdw' }, silent)).to.deep.equal(MIGRATIONS);
    expect({ edges: await h.query('mdw', KEPT.edges), sizes: await h.query('mdw', KEPT.sizes) }).to.deep.equal(kept);
    const lines: string[] = [];
    const report = await verifyChain({ cfg: h.config(), log: silent, out: (l) => lines.push(l) }, {});
    expect({ lines, differences: report.differences }).to.deep.equal({ lines: [], differences: 0 });
  });
});
