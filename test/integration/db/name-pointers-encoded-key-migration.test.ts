/**
 * @module Migration 1139 on a schema whose stored name events predate `encoded_key` (issue 87): each pointer gains the
 * `ba_` of its key's bytes as the node renders it (the SDK's encoding the oracle), in its place, and name_state follows;
 * a pointer that holds one already keeps its own.
 */
import { expect } from 'chai';
import { encode as sdkEncode, Encoding } from '@aeternity/aepp-sdk';
import { databaseBeforeMigration } from '../../support/migration-before.ts';

const MIGRATION = '1139_name_pointers_encoded_key';
const SCHEMA = 'named';
/** ba is the SDK's `ba_` of a key's UTF-8 bytes */
const ba = (key: string): string => sdkEncode(Buffer.from(key, 'utf8'), Encoding.Bytearray);

describe(`migration ${MIGRATION}`, function () {
  this.timeout(120_000);
  const db = databaseBeforeMigration(MIGRATION);

  it("gives every stored pointer its key's encoded_key, in order, and name_state with them", async () => {
    await db.migrateBefore(SCHEMA);
    // a key longer than base64's 76-character lines, one not ASCII, and one already carrying the node's encoded_key
    const long = 'k'.repeat(100);
    const kept = { encoded_key: sdkEncode(Buffer.from([0x6b, 0xff]), Encoding.Bytearray), id: 'ak_3', key: 'k\ufffd' };
    const old = [
      { key: 'account_pubkey', id: 'ak_1' },
      { key: long, id: 'ok_2' },
      { key: 'clé ✓', id: 'ct_3' },
    ];
    const insert = `INSERT INTO ${SCHEMA}.name_events (name_hash, name, height, micro_index, tx_index, tx_hash, kind,
                      owner, expires_at, pointers) VALUES ($1, $2, $3, 0, 0, 'th_x', $4, 'ak_o', 500, $5)`;
    await db.query(insert, ['nm_a', 'a.chain', 1, 'claim', '[]']);
    await db.query(insert, ['nm_a', null, 2, 'update', JSON.stringify(old)]);
    await db.query(insert, ['nm_b', 'b.chain', 1, 'claim', '[]']);
    await db.query(insert, ['nm_b', null, 3, 'update', JSON.stringify([kept])]);

    expect(await db.migrateAll(SCHEMA)).to.include(MIGRATION);
    const expected = old.map((p) => ({ ...p, encoded_key: ba(p.key) }));
    const events = await db.query(
      `SELECT name_hash, height, pointers FROM ${SCHEMA}.name_events ORDER BY name_hash, height`,
    );
    expect(events).to.deep.equal([
      { name_hash: 'nm_a', height: 1, pointers: [] },
      { name_hash: 'nm_a', height: 2, pointers: expected },
      { name_hash: 'nm_b', height: 1, pointers: [] },
      { name_hash: 'nm_b', height: 3, pointers: [kept] },
    ]);
    expect(await db.query(`SELECT name_hash, pointers FROM ${SCHEMA}.name_state ORDER BY name_hash`)).to.deep.equal([
      { name_hash: 'nm_a', pointers: expected },
      { name_hash: 'nm_b', pointers: [kept] },
    ]);
  });
});
