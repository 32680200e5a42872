/**
 * @module Migration 1160 on a schema holding contracts' AENS calls and their name events: each call's last update of a
 * name gives name_pointers rows with its internal call's `local_idx` (a key repeated keeping its last id), a call
 * whose name event the int_calls area has not written gives none, the NameUpdateTx's rows are left alone; and the
 * transfers and statistics derive again from the first contract name event to the top.
 */
import { expect } from 'chai';
import { databaseBeforeMigration } from '../../support/migration-before.ts';

const MIGRATION = '1160_contract_name_pointers';
const SCHEMA = 'pointed';

describe(`migration ${MIGRATION}`, function () {
  this.timeout(120_000);
  const db = databaseBeforeMigration(MIGRATION);

  it("writes the pointers of the contracts' stored updates and has the transfers and statistics derive again", async () => {
    await db.migrateBefore(SCHEMA);
    const keyBlock = (height: number): string =>
      `INSERT INTO key_blocks (height, hash, prev_hash, prev_key_hash, beneficiary, miner, time_ms, data)
       VALUES (${height}, 'kh_${height}', 'kh_p', 'kh_p', 'ak_b', 'ak_m', 0, '{}')`;
    const event = (height: number, txIndex: number, localIdx: number | null): string =>
      `INSERT INTO name_events (name_hash, name, height, micro_index, tx_index, tx_hash, kind, owner, expires_at,
         pointers, local_idx) VALUES ('nm_a', 'a.chain', ${height}, 0, ${txIndex}, 'th_x', 'update', 'ak_o', 500, '[]',
         ${localIdx ?? 'NULL'})`;
    const call = (height: number, txIndex: number, localIdx: number, fn: string, tx: object): string =>
      `INSERT INTO contract_internal_calls (height, micro_index, tx_index, local_idx, function, internal_tx, contract_id)
       VALUES (${height}, 0, ${txIndex}, ${localIdx}, '${fn}', '${JSON.stringify(tx)}', 'ct_r')`;
    const update = (pointers: { key: string; id: string }[]): object => ({
      type: 'NameUpdateTx',
      name_id: 'nm_a',
      pointers,
    });
    // the internal calls' trigger keeps its ids in the schema of the session's search_path
    await db.query(
      [
        `SET search_path TO ${SCHEMA}`,
        ...[1, 2, 3, 4, 5].map(keyBlock),
        // a NameUpdateTx's pointer, then a contract's call updating the name twice, then a call whose event is not
        // written
        event(2, 0, null),
        `INSERT INTO name_pointers (name_hash, height, micro_index, tx_index, key, id)
         VALUES ('nm_a', 2, 0, 0, 'account_pubkey', 'ak_1')`,
        event(3, 1, 1),
        call(3, 1, 0, 'Chain.spend', { amount: 1 }),
        call(3, 1, 1, 'AENS.update', update([{ key: 'oracle_pubkey', id: 'ok_2' }])),
        call(
          3,
          1,
          2,
          'AENS.update',
          update([
            { key: 'account_pubkey', id: 'ak_3' },
            { key: 'account_pubkey', id: 'ak_4' },
            { key: 'contract_pubkey', id: 'ct_5' },
          ]),
        ),
        call(4, 0, 0, 'AENS.update', update([{ key: 'account_pubkey', id: 'ak_6' }])),
      ].join(';\n'),
    );

    expect(await db.migrateAll(SCHEMA)).to.include(MIGRATION);
    expect(
      await db.query(
        `SELECT height, tx_index, key, id, local_idx FROM ${SCHEMA}.name_pointers ORDER BY height, tx_index, key`,
      ),
    ).to.deep.equal([
      { height: 2, tx_index: 0, key: 'account_pubkey', id: 'ak_1', local_idx: null },
      { height: 3, tx_index: 1, key: 'account_pubkey', id: 'ak_4', local_idx: 2 },
      { height: 3, tx_index: 1, key: 'contract_pubkey', id: 'ct_5', local_idx: 2 },
    ]);
    expect(
      await db.query(`SELECT area, next_height, to_height FROM ${SCHEMA}.derive_backfill ORDER BY area`),
    ).to.deep.equal([
      { area: 'stats', next_height: 3, to_height: 5 },
      { area: 'transfers', next_height: 3, to_height: 5 },
    ]);
  });
});
