/**
 * @module Migrations 1045–1048 and 1060 on a schema the populator filled before them (an upgrade): their backfill builds the
 * active names' edges and the sizes below each generation exactly as the triggers and the populator keep them, and
 * `mdw -v` finds nothing to recount.
 */
import { expect } from 'chai';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MIGRATIONS_DIR, migrate, migrationNames } from '../../../src/db/migrator.ts';
import { verifyChain } from '../../../src/indexer/maintenance/verify.ts';
import { populateToTop } from '../../support/populate.ts';
import { startHarness, silent, type Harness } from '../indexer/support/harness.ts';

const MIGRATIONS = [
  '1045_name_counts',
  '1046_generation_sizes',
  '1047_account_transactions_multi_field',
  '1048_name_state_deactivation',
];
/** the active names' edges summed per span (issue 57's second step), named after migrations of other areas */
const SPANS = '1060_name_count_spans';
const KEPT = {
  edges: 'SELECT owner, height, expiring, activating FROM name_count_edges ORDER BY owner, height',
  spans: 'SELECT owner, width, span, expiring, activating FROM name_count_spans ORDER BY owner, width, span',
  sizes: 'SELECT height, first_txi, size_before FROM generation_txis ORDER BY height',
};

describe('migrations 1045–1048 and 1060 on a populated schema', function () {
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
    const read = async (): Promise<{ [k in keyof typeof KEPT]: unknown[] }> => ({
      edges: await h.query('mdw', KEPT.edges),
      spans: await h.query('mdw', KEPT.spans),
      sizes: await h.query('mdw', KEPT.sizes),
    });
    const kept = await read();
    expect(kept.edges.length, 'active names').to.be.above(0);
    expect(kept.spans.length, 'spans of 100 and 10 000 heights').to.be.at.least(2);
    expect(kept.sizes.length, 'generations').to.be.above(40);
    // the schema as before the migrations: their objects gone, their names not applied
    await h.query('mdw', 'DROP INDEX name_state_deactivation');
    await h.query('mdw', 'DROP INDEX account_transactions_multi_field');
    await h.query('mdw', 'ALTER TABLE generation_txis DROP COLUMN size_before');
    await h.query('mdw', 'DROP TABLE name_count_spans');
    await h.query('mdw', 'DROP TABLE name_count_edges');
    await h.query('mdw', 'DROP FUNCTION name_count_spans_apply()');
    await h.query('mdw', 'DROP FUNCTION name_count_edges_apply() CASCADE');
    await h.query('mdw', 'DROP FUNCTION name_count_edges_of(name_state)');
    await h.query('mdw', 'DELETE FROM mdw_migrations WHERE name = ANY($1)', [[...MIGRATIONS, SPANS]]);
    // the migrations named after them, applied here, are set aside: the files of the release that brought 1045–1048
    // end with 1048, and the migrator refuses a pending file named below an applied one
    const later = await h.query('mdw', 'DELETE FROM mdw_migrations WHERE name > $1 RETURNING *', [MIGRATIONS.at(-1)]);
    const release = mkdtempSync(join(tmpdir(), 'mdw-migrations-'));
    for (const name of migrationNames().filter((n) => n <= MIGRATIONS.at(-1)!))
      symlinkSync(join(MIGRATIONS_DIR, `${name}.sql`), join(release, `${name}.sql`));
    try {
      expect(await migrate({ databaseUrl: h.db.url, schema: 'mdw', dir: release }, silent)).to.deep.equal(MIGRATIONS);
    } finally {
      rmSync(release, { recursive: true });
    }
    for (const row of later)
      await h.query('mdw', `INSERT INTO mdw_migrations SELECT * FROM json_populate_record(NULL::mdw_migrations, $1)`, [
        JSON.stringify(row),
      ]);
    // then 1060 (set aside above with its objects) sums the rebuilt edges per span
    expect(await migrate({ databaseUrl: h.db.url, schema: 'mdw' }, silent)).to.deep.equal([SPANS]);
    expect(await read()).to.deep.equal(kept);
    const lines: string[] = [];
    const report = await verifyChain({ cfg: h.config(), log: silent, out: (l) => lines.push(l) }, {});
    expect({ lines, differences: report.differences }).to.deep.equal({ lines: [], differences: 0 });
  });
});
