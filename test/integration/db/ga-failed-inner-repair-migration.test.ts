/**
 * @module Migration 1142 on a loaded schema (issue 88): the heights it records for the populator's start to repair are
 * those holding a GAMetaTx whose stored GA call returned `error`, or whose outcome no stored row tells (the `ga` area
 * still to derive its height or the node no longer holding its info when the area derived it, a PayingForTx paying
 * for one, a GAMetaTx wrapping another wrapper); not one whose call returned `ok`.
 * The populator's start is test/integration/v3/ga-failed-inner-repair.test.ts.
 */
import { expect } from 'chai';
import { txTypeCode } from '../../../src/chain/id-key.ts';
import { databaseBeforeMigration } from '../../support/migration-before.ts';

const MIGRATION = '1142_ga_failed_inner_repair';
const SCHEMA = 'repaired';

describe(`migration ${MIGRATION}`, function () {
  this.timeout(120_000);
  const db = databaseBeforeMigration(MIGRATION);

  it('records the heights of the GA transactions whose inner transaction failed or may have, as seeds', async () => {
    await db.migrateBefore(SCHEMA);
    /** one transaction a height, its GA call's return type as the ga area stored it (undefined: no row) */
    const stored: Array<[height: number, type: string, inner: string | null, returnType?: string | null]> = [
      [1, 'GAMetaTx', 'SpendTx', 'error'],
      [2, 'GAMetaTx', 'SpendTx', 'ok'],
      // the node no longer held its info where the area derived it: the outcome unknown, asked again at the start
      [3, 'GAMetaTx', 'NameClaimTx', null],
      [4, 'GAMetaTx', 'NameClaimTx'],
      // a PayingForTx's outcome, and a nested GAMetaTx's, are not stored
      [5, 'PayingForTx', 'GAMetaTx'],
      [6, 'GAMetaTx', 'PayingForTx', 'ok'],
      [7, 'PayingForTx', 'SpendTx'],
      [8, 'SpendTx', null],
      // the ga area still to derive this height: no row tells
      [9, 'GAMetaTx', 'ContractCallTx'],
    ];
    for (const [height, type, inner, returnType] of stored) {
      await db.query(
        `INSERT INTO ${SCHEMA}.transactions (hash, height, micro_index, tx_index, micro_time_ms, tx_type, fee, size,
                                             signed, inner_type)
         VALUES ($1, $2, 0, 0, 0, $3, 1, 1, '\\x00', $4)`,
        [`th_${height}`, height, txTypeCode(type), inner],
      );
      if (returnType !== undefined)
        await db.query(
          `INSERT INTO ${SCHEMA}.ga_calls (height, micro_index, tx_index, gas_used, return_type) VALUES ($1, 0, 0, 1, $2)`,
          [height, returnType],
        );
    }
    await db.query(`INSERT INTO ${SCHEMA}.derive_backfill (area, next_height, to_height) VALUES ('ga', 9, 9)`);

    expect(await db.migrateAll(SCHEMA)).to.include(MIGRATION);
    const seeds = await db.query(`SELECT repair, height, stage FROM ${SCHEMA}.repair_heights ORDER BY height`);
    expect(seeds).to.deep.equal(
      [1, 3, 4, 5, 6, 9].map((height) => ({ repair: 'ga_failed_inner', height, stage: 'seed' })),
    );
  });

  it('records nothing on an empty schema', async () => {
    await db.migrateAll('empty');
    expect(await db.query('SELECT * FROM empty.repair_heights')).to.deep.equal([]);
  });
});
