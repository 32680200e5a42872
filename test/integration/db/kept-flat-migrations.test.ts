/**
 * @module Migrations 1045–1048 and 1060–1063 on a schema the populator filled before them (an upgrade): their backfill
 * builds the active names' edges, the sizes below each generation, the spends per day and the names pointing at each
 * id exactly as the triggers and the populator keep them (1061's through the populator's `spends` area, the spend
 * rates answering the same meanwhile), and `mdw -v` finds nothing to recount.
 */
import { expect } from 'chai';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MIGRATIONS_DIR, migrate, migrationNames } from '../../../src/db/schema/migrator.ts';
import { reloadHeights } from '../../../src/indexer/maintenance/reload.ts';
import { verifyChain } from '../../../src/indexer/maintenance/verify.ts';
import { populateToTop } from '../../support/populate.ts';
import { createPool } from '../../../src/db/connection/pool.ts';
import { namesPointingAt } from '../../../src/db/queries/names.ts';
import { spendRates } from '../../../src/db/queries/spend-rates.ts';
import { DeriveBackfill } from '../../../src/indexer/derived/derive-backfill.ts';
import { DEFAULT_TRANSFER_RULES } from '../../../src/indexer/derived/internal-transfers.ts';
import { startHarness, silent, type Harness } from '../indexer/support/harness.ts';

const MIGRATIONS = [
  '1045_name_counts',
  '1046_generation_sizes',
  '1047_account_transactions_multi_field',
  '1048_name_state_deactivation',
];
/** the active names' edges summed per span (issue 57's second step), named after migrations of other areas */
const SPANS = '1060_name_count_spans';
/** the same spans kept by statement triggers instead of 1060's row trigger (the populator's speed) */
const SPANS_BY_STATEMENT = '1063_name_count_spans_by_statement';
/** the spends per height and day, and per day (the spend rates' kept rows) */
const SPENDS = '1061_spend_days';
/** the names pointing at each id (the reverse lookup's kept rows) */
const POINTEES = '1062_name_pointees';
/** the transactions' senders and recipients (the from-to route's rows) */
const PAIRS = '1077_account_pairs';
const KEPT = {
  edges: 'SELECT owner, height, expiring, activating FROM name_count_edges ORDER BY owner, height',
  spans: 'SELECT owner, width, span, expiring, activating FROM name_count_spans ORDER BY owner, width, span',
  sizes: 'SELECT height, first_txi, size_before FROM generation_txis ORDER BY height',
  spendHeights: 'SELECT height, day, count, amount FROM spend_heights ORDER BY height, day',
  spendDays: 'SELECT day, count, amount FROM spend_days ORDER BY day',
  pointees: 'SELECT id, name, name_hash, expires_at, auction_end FROM name_pointees ORDER BY id, name',
  pairs: 'SELECT sender, recipient, height, micro_index, tx_index FROM account_pairs ORDER BY 1, 2, 3, 4, 5',
};

describe('migrations 1045–1048, 1060–1063 and 1077 on a populated schema', function () {
  this.timeout(180_000);
  let h: Harness;

  before(async () => {
    h = await startHarness(40, 'kept-flat-migrations');
    await populateToTop(h.config());
  });
  after(async () => {
    await h?.close();
  });

  /** migrateUpTo applies the pending files up to `last` (a release's files end with its newest migration) */
  const migrateUpTo = async (last: string): Promise<string[]> => {
    const release = mkdtempSync(join(tmpdir(), 'mdw-migrations-'));
    for (const name of migrationNames().filter((n) => n <= last))
      symlinkSync(join(MIGRATIONS_DIR, `${name}.sql`), join(release, `${name}.sql`));
    try {
      return await migrate({ databaseUrl: h.db.url, schema: 'mdw', dir: release }, silent);
    } finally {
      rmSync(release, { recursive: true });
    }
  };
  /** restore records as applied again the migrations set aside */
  const restore = async (rows: readonly { name: string }[]): Promise<void> => {
    for (const row of rows)
      await h.query('mdw', `INSERT INTO mdw_migrations SELECT * FROM json_populate_record(NULL::mdw_migrations, $1)`, [
        JSON.stringify(row),
      ]);
  };
  /** applyAgain applies migration `name` alone again (its objects dropped by the caller), the ones after it set aside */
  const applyAgain = async (name: string): Promise<void> => {
    await h.query('mdw', 'DELETE FROM mdw_migrations WHERE name = $1', [name]);
    const later = await h.query<{ name: string }>('mdw', 'DELETE FROM mdw_migrations WHERE name > $1 RETURNING *', [
      name,
    ]);
    expect(await migrateUpTo(name)).to.deep.equal([name]);
    await restore(later);
  };
  const read = async (): Promise<{ [k in keyof typeof KEPT]: unknown[] }> => ({
    edges: await h.query('mdw', KEPT.edges),
    spans: await h.query('mdw', KEPT.spans),
    sizes: await h.query('mdw', KEPT.sizes),
    spendHeights: await h.query('mdw', KEPT.spendHeights),
    spendDays: await h.query('mdw', KEPT.spendDays),
    pointees: await h.query('mdw', KEPT.pointees),
    pairs: await h.query('mdw', KEPT.pairs),
  });
  /** verifiesClean runs `mdw -v` over the schema: no line, no difference */
  const verifiesClean = async (): Promise<void> => {
    const lines: string[] = [];
    const report = await verifyChain({ cfg: h.config(), log: silent, out: (l) => lines.push(l) }, {});
    expect({ lines, differences: report.differences }).to.deep.equal({ lines: [], differences: 0 });
  };

  it('build on upgrade what the populator keeps, and verify finds no difference', async () => {
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
    await h.query('mdw', 'DELETE FROM mdw_migrations WHERE name = ANY($1)', [
      [...MIGRATIONS, SPANS, SPANS_BY_STATEMENT],
    ]);
    // the migrations named after them, applied here, are set aside: the files of the release that brought 1045–1048
    // end with 1048, and the migrator refuses a pending file named below an applied one
    const later = await h.query<{ name: string }>('mdw', 'DELETE FROM mdw_migrations WHERE name > $1 RETURNING *', [
      MIGRATIONS.at(-1),
    ]);
    expect(await migrateUpTo(MIGRATIONS.at(-1)!)).to.deep.equal(MIGRATIONS);
    await restore(later.filter((row) => row.name < SPANS));
    // then 1060 (set aside above with its objects) sums the rebuilt edges per span, and 1063 keeps them by statement
    expect(await migrateUpTo(SPANS)).to.deep.equal([SPANS]);
    await restore(later.filter((row) => row.name > SPANS && row.name < SPANS_BY_STATEMENT));
    expect(await migrateUpTo(SPANS_BY_STATEMENT)).to.deep.equal([SPANS_BY_STATEMENT]);
    await restore(later.filter((row) => row.name > SPANS_BY_STATEMENT));
    expect(await read()).to.deep.equal(kept);
    await verifiesClean();
  });

  it('1061 leaves the spends to the `spends` area, and the rates answer the same before, during and after it', async () => {
    const kept = await read();
    expect(kept.spendHeights.length, 'heights with spends').to.be.above(5);
    const pool = createPool({ databaseUrl: h.db.url, schema: 'mdw', max: 2 }, silent);
    try {
      const [days] = await h.query<{ first: number; last: number }>(
        'mdw',
        'SELECT min(day) AS first, max(day) AS last FROM spend_days',
      );
      const rates = (): ReturnType<typeof spendRates> => spendRates(pool, days!.first - 1, days!.last + 2);
      const answered = await rates();
      expect(
        answered.reduce((n, r) => n + r.count, 0),
        'spends',
      ).to.be.above(5);
      // the schema as before 1061: its objects gone, its name not applied
      await h.query('mdw', 'DROP TRIGGER spends_on_key_blocks_delete ON key_blocks');
      await h.query('mdw', 'DROP TABLE spend_heights, spend_days');
      await h.query('mdw', 'DROP FUNCTION spend_days_apply()');
      await applyAgain(SPENDS);
      // nothing kept yet: every height waits for the area, whose heights the rates decode as before
      expect(await h.query('mdw', 'SELECT area, next_height FROM derive_backfill')).to.deep.equal([
        { area: 'spends', next_height: 0 },
      ]);
      expect(await h.query('mdw', KEPT.spendDays)).to.deep.equal([]);
      expect(await rates()).to.deep.equal(answered);
      const backfill = new DeriveBackfill({
        pool,
        log: silent,
        rules: DEFAULT_TRANSFER_RULES,
        batchHeights: 7,
        schema: 'mdw',
      });
      // part derived: the kept heights and the decoded ones add up to the same days
      expect(await backfill.step()).to.equal(true);
      expect((await h.query('mdw', KEPT.spendHeights)).length, 'heights kept after one step').to.be.above(0);
      expect(await rates()).to.deep.equal(answered);
      while (await backfill.step());
      expect(await h.query('mdw', 'SELECT * FROM derive_backfill')).to.deep.equal([]);
      expect(await read()).to.deep.equal(kept);
      expect(await rates()).to.deep.equal(answered);
      // heights pending that hold rows of the area already (a continued generation whose derivation failed): their
      // rows give way to their decoding, never counted twice
      await h.query(
        'mdw',
        `INSERT INTO derive_backfill (area, next_height, to_height)
                            SELECT 'spends', min(height) + 1, max(height) FROM key_blocks`,
      );
      expect(await rates()).to.deep.equal(answered);
      while (await backfill.step());
      expect(await read()).to.deep.equal(kept);
    } finally {
      await pool.end();
    }
    await verifiesClean();
  });

  it('1062 keeps the names pointing at each id as the triggers do, and the reverse lookups answer the same', async () => {
    const kept = await read();
    expect(new Set(kept.pointees.map((r) => (r as { id: string }).id)).size, 'ids pointed at').to.be.above(1);
    const pool = createPool({ databaseUrl: h.db.url, schema: 'mdw', max: 2 }, silent);
    try {
      const [top] = await h.query<{ top: number }>('mdw', 'SELECT max(height) AS top FROM key_blocks');
      const lookups = async (): Promise<unknown[]> => {
        const ids = await h.query<{ id: string }>('mdw', 'SELECT DISTINCT id FROM name_pointees ORDER BY id');
        return Promise.all(ids.map((r) => namesPointingAt(pool, r.id, top!.top, { limit: 100, offset: 0 })));
      };
      const answered = await lookups();
      // the schema as before 1062: its objects gone, its name not applied
      await h.query('mdw', 'DROP TABLE name_pointees');
      await h.query('mdw', 'DROP FUNCTION name_pointees_apply() CASCADE');
      await h.query('mdw', 'DROP FUNCTION name_pointees_of(name_state)');
      await applyAgain(POINTEES);
      expect(await read()).to.deep.equal(kept);
      expect(await lookups()).to.deep.equal(answered);
    } finally {
      await pool.end();
    }
    await verifiesClean();
  });

  it('1063 keeps the same spans by statement triggers on upgrade, and through a reload of every height', async () => {
    const kept = await read();
    // the schema as before 1063: 1060's spans and row trigger, built again over the same edges
    await h.query('mdw', 'DROP TABLE name_count_spans');
    await h.query('mdw', 'DROP FUNCTION name_count_spans_apply() CASCADE');
    await h.query('mdw', 'DELETE FROM mdw_migrations WHERE name = ANY($1)', [[SPANS, SPANS_BY_STATEMENT]]);
    const later = await h.query<{ name: string }>('mdw', 'DELETE FROM mdw_migrations WHERE name > $1 RETURNING *', [
      SPANS,
    ]);
    expect(await migrateUpTo(SPANS)).to.deep.equal([SPANS]);
    await restore(later.filter((row) => row.name < SPANS_BY_STATEMENT));
    expect(
      await h.query('mdw', "SELECT tgname FROM pg_trigger WHERE tgrelid = 'name_count_edges'::regclass"),
    ).to.deep.equal([{ tgname: 'name_count_spans_on_change' }]);
    expect(await migrateUpTo(SPANS_BY_STATEMENT)).to.deep.equal([SPANS_BY_STATEMENT]);
    await restore(later.filter((row) => row.name > SPANS_BY_STATEMENT));
    expect(await read()).to.deep.equal(kept);
    // every name's state deleted and written again: the statements' edges reach the spans once each
    const [top] = await h.query<{ top: number }>('mdw', 'SELECT max(height) AS top FROM key_blocks');
    await reloadHeights(
      { cfg: h.config(), log: silent },
      Array.from({ length: top!.top + 1 }, (_, i) => i),
    );
    expect(await read()).to.deep.equal(kept);
    await verifiesClean();
  });

  it('1077 pairs the stored transactions as the writer pairs them', async () => {
    const kept = await read();
    expect(kept.pairs.length, 'spends').to.be.above(5);
    // the schema as before 1077: its objects gone, its name not applied
    await h.query('mdw', 'DROP TRIGGER account_pairs_on_key_blocks_delete ON key_blocks');
    await h.query('mdw', 'DROP TABLE account_pairs');
    await applyAgain(PAIRS);
    expect(await read()).to.deep.equal(kept);
    await verifiesClean();
  });
});
