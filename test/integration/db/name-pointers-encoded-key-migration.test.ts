/**
 * @module Migration 1139 on a schema whose stored name events predate `encoded_key` (issue 87): each pointer gains the
 * `ba_` of its key's bytes as the node renders it (the SDK's encoding the oracle), in its place, and name_state follows;
 * a pointer that holds one already keeps its own.
 */
import { expect } from 'chai';
import { encode as sdkEncode, Encoding } from '@aeternity/aepp-sdk';
import { copyFile, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { migrate, MIGRATIONS_DIR } from '../../../src/db/schema/migrator.ts';
import { createTestDatabase, queryOnce } from '../../support/postgres.ts';

const log = pino({ level: 'silent' });
const MIGRATION = '1139_name_pointers_encoded_key';
const SCHEMA = 'named';
/** ba is the SDK's `ba_` of a key's UTF-8 bytes */
const ba = (key: string): string => sdkEncode(Buffer.from(key, 'utf8'), Encoding.Bytearray);

describe(`migration ${MIGRATION}`, function () {
  this.timeout(120_000);
  let db: { url: string; drop(): Promise<void> };
  let dir: string;
  before(async () => {
    db = await createTestDatabase();
    dir = await mkdtemp(join(tmpdir(), 'mdw-1139-'));
    for (const f of await readdir(MIGRATIONS_DIR))
      if (f.endsWith('.sql') && f < `${MIGRATION}.sql`) await copyFile(join(MIGRATIONS_DIR, f), join(dir, f));
  });
  after(async () => {
    await db?.drop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });
  const query = async (sql: string, params: unknown[] = []): Promise<unknown[]> =>
    (await queryOnce(db.url, sql, params)).rows;

  it("gives every stored pointer its key's encoded_key, in order, and name_state with them", async () => {
    await migrate({ databaseUrl: db.url, schema: SCHEMA, dir }, log);
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
    await query(insert, ['nm_a', 'a.chain', 1, 'claim', '[]']);
    await query(insert, ['nm_a', null, 2, 'update', JSON.stringify(old)]);
    await query(insert, ['nm_b', 'b.chain', 1, 'claim', '[]']);
    await query(insert, ['nm_b', null, 3, 'update', JSON.stringify([kept])]);

    expect(await migrate({ databaseUrl: db.url, schema: SCHEMA }, log)).to.include(MIGRATION);
    const expected = old.map((p) => ({ ...p, encoded_key: ba(p.key) }));
    const events = await query(
      `SELECT name_hash, height, pointers FROM ${SCHEMA}.name_events ORDER BY name_hash, height`,
    );
    expect(events).to.deep.equal([
      { name_hash: 'nm_a', height: 1, pointers: [] },
      { name_hash: 'nm_a', height: 2, pointers: expected },
      { name_hash: 'nm_b', height: 1, pointers: [] },
      { name_hash: 'nm_b', height: 3, pointers: [kept] },
    ]);
    expect(await query(`SELECT name_hash, pointers FROM ${SCHEMA}.name_state ORDER BY name_hash`)).to.deep.equal([
      { name_hash: 'nm_a', pointers: expected },
      { name_hash: 'nm_b', pointers: [kept] },
    ]);
  });
});
