/**
 * @module Migration 1040 on a schema that holds DEX pairs: the column that marks a factory known by its code arrives
 * unset, and the token area is queued again from the first pair's height, so that the populator's backfill marks the
 * pairs of every factory its code shows (until then /v3/dex lists those DEX_FACTORY names, as before).
 */
import { expect } from 'chai';
import { databaseBeforeMigration } from '../../support/migration-before.ts';

const MIGRATION = '1040_dex_factory_by_code';

describe(`migration ${MIGRATION}`, function () {
  this.timeout(120_000);
  const db = databaseBeforeMigration(MIGRATION);

  it('queues the token area from the first pair of a schema with DEX pairs, and none of a schema without', async () => {
    for (const schema of ['with_pairs', 'without_pairs']) {
      await db.migrateBefore(schema);
      await db.query(`INSERT INTO ${schema}.key_blocks VALUES
                     (6, 'kh_6', 'kh_5', 'kh_5', 'ak_b', 'ak_m', 1700000000000, '{}'),
                     (7, 'kh_7', 'kh_6', 'kh_6', 'ak_b', 'ak_m', 1700000000001, '{}')`);
    }
    await db.query(`INSERT INTO with_pairs.dex_pairs VALUES (6, 0, 0, 'th_1', 0, 'ct_f', 'ct_p', 'ct_a', 'ct_b')`);
    for (const schema of ['with_pairs', 'without_pairs'])
      expect(await db.migrateAll(schema), schema).to.include(MIGRATION);
    expect(await db.query('SELECT factory_id, factory_by_code FROM with_pairs.dex_pairs')).to.deep.equal([
      { factory_id: 'ct_f', factory_by_code: false },
    ]);
    expect(
      await db.query("SELECT next_height, to_height FROM with_pairs.derive_backfill WHERE area = 'tokens'"),
    ).to.deep.equal([{ next_height: 6, to_height: 7 }]);
    expect(await db.query("SELECT * FROM without_pairs.derive_backfill WHERE area = 'tokens'")).to.deep.equal([]);
  });
});
