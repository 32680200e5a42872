/**
 * @module Migration 1164 on schemas an earlier build stored: where a contract's AENS.claim is stored, the names' fold
 * (`names`), the transfers, the statistics and the balances derive again from its first height to the top; a chain
 * without one (a contract's AENS.update only, name transactions) queues nothing.
 */
import { expect } from 'chai';
import { databaseBeforeMigration } from '../../support/migration-before.ts';

const MIGRATION = '1164_contract_claims_folded_again';

describe(`migration ${MIGRATION}`, function () {
  this.timeout(120_000);
  const db = databaseBeforeMigration(MIGRATION);

  const keyBlock = (height: number): string =>
    `INSERT INTO key_blocks (height, hash, prev_hash, prev_key_hash, beneficiary, miner, time_ms, data)
     VALUES (${height}, 'kh_${height}', 'kh_p', 'kh_p', 'ak_b', 'ak_m', 0, '{}')`;
  const call = (height: number, fn: string): string =>
    `INSERT INTO contract_internal_calls (height, micro_index, tx_index, local_idx, function, internal_tx, contract_id)
     VALUES (${height}, 0, 0, 0, '${fn}', '{"name_id": "nm_a"}', 'ct_r')`;

  /** load stores `statements` in a schema migrated by the release before, then migrates it: derive_backfill after */
  async function load(schema: string, statements: string[]): Promise<unknown[]> {
    await db.migrateBefore(schema);
    // the internal calls' trigger keeps its ids in the schema of the session's search_path
    await db.query([`SET search_path TO ${schema}`, ...statements].join(';\n'));
    expect(await db.migrateAll(schema)).to.include(MIGRATION);
    return db.query(`SELECT area, next_height, to_height FROM ${schema}.derive_backfill ORDER BY area`);
  }

  it("has the names fold again and their readers derive again from a contract's first AENS.claim to the top", async () => {
    const queued = await load('claimed', [
      ...[1, 2, 3, 4, 5, 6].map(keyBlock),
      call(2, 'AENS.update'),
      call(4, 'AENS.claim'),
      call(5, 'AENS.claim'),
      // the statistics already asked from 3 on (a derivation pending): the earlier height stays
      `INSERT INTO derive_backfill (area, next_height, to_height) VALUES ('stats', 3, 4)`,
    ]);
    expect(queued).to.deep.equal([
      { area: 'balances', next_height: 4, to_height: 6 },
      { area: 'names', next_height: 4, to_height: 6 },
      { area: 'stats', next_height: 3, to_height: 6 },
      { area: 'transfers', next_height: 4, to_height: 6 },
    ]);
  });

  it('queues nothing on a chain where no contract claimed a name, at the cost of one probe of an index', async () => {
    const queued = await load('unclaimed', [
      ...[1, 2, 3].map(keyBlock),
      call(2, 'AENS.update'),
      // a chain's other internal calls, which the probe does not read
      `INSERT INTO contract_internal_calls (height, micro_index, tx_index, local_idx, function, internal_tx, contract_id)
       SELECT 3, 0, n, 0, 'Chain.spend', '{}', 'ct_r' FROM generate_series(1, 20000) n`,
      'ANALYZE contract_internal_calls',
    ]);
    expect(queued).to.deep.equal([]);
    const plan = await db.query(
      "EXPLAIN SELECT min(height) FROM unclaimed.contract_internal_calls WHERE function = 'AENS.claim'",
    );
    expect(JSON.stringify(plan)).to.match(/Index Only Scan using contract_internal_calls_function/);
  });
});
