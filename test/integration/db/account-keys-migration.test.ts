/**
 * @module Migrations 0032–0035 and 0095 convert a stored database's account_transactions and account statistics in
 * place.
 */
import { expect } from 'chai';
import { encode as sdkEncode, Encoding } from '@aeternity/aepp-sdk';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, copyFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { idKey, txTypeCode, TX_TYPE_CODES } from '../../../src/chain/id-key.ts';
import { migrate, MIGRATIONS_DIR } from '../../../src/db/migrator.ts';
import { createPool, type Pool } from '../../../src/db/pool.ts';
import { createTestDatabase } from '../../support/postgres.ts';

const log = pino({ level: 'silent' });
const SCHEMA = 'mdw_upgrade';
const ENCODINGS = [
  Encoding.AccountAddress,
  Encoding.OracleAddress,
  Encoding.ContractAddress,
  Encoding.Channel,
  Encoding.Name,
  Encoding.OracleQueryId,
  Encoding.Commitment,
];

describe('migrations 0032–0035, 0095: ids as keys then numbers, types as codes, fields as text, converted in place', () => {
  let db: { url: string; drop(): Promise<void> };
  let pool: Pool;
  let before0032: string;
  // the migrations that convert account_transactions (0032–0039, 0095): pending on a database stored before them
  const ours = readdirSync(MIGRATIONS_DIR).filter((n) => /^(003[2-9]|0095)_.*\.sql$/.test(n));
  before(async () => {
    db = await createTestDatabase();
    // a database as stored before 0032: every other migration applied, statistics with text accounts (0070 as it was)
    before0032 = mkdtempSync(join(tmpdir(), 'mdw-migrations-'));
    for (const f of readdirSync(MIGRATIONS_DIR).filter((n) => n.endsWith('.sql') && !ours.includes(n)))
      copyFileSync(join(MIGRATIONS_DIR, f), join(before0032, f));
    await migrate({ databaseUrl: db.url, schema: SCHEMA, dir: before0032 }, log);
    pool = createPool({ databaseUrl: db.url, schema: SCHEMA }, log);
    await pool.query('ALTER TABLE stats_accounts ALTER COLUMN account TYPE text');
    await pool.query('ALTER TABLE stats_active_accounts ALTER COLUMN account TYPE text');
  });
  after(async () => {
    await pool?.end();
    await db?.drop();
    rmSync(before0032, { recursive: true, force: true });
  });

  it('keeps every row, with each id as its number for its key and each type as its code; statistics take the same', async () => {
    const ids = ENCODINGS.flatMap((e, i) =>
      Array.from({ length: 6 }, (_, j) => {
        const bytes = randomBytes(32);
        if (j === 0) bytes.fill(0, 0, 1 + (i % 3)); // leading zero bytes: leading '1's
        return sdkEncode(bytes, e);
      }),
    );
    const rows = ids.flatMap((id, i) =>
      TX_TYPE_CODES.filter((_, t) => (t + i) % 4 === 0).map(([type], t) => ({
        id,
        height: i,
        micro: t,
        tx: i * 7 + t,
        type,
        fields: t % 2 === 0 ? ['sender_id'] : ['tx.recipient_id', 'pointers'],
      })),
    );
    await pool.query(
      `INSERT INTO account_transactions (account, height, micro_index, tx_index, tx_type, fields)
       SELECT a, h, m, t, y, string_to_array(f, ' ') FROM unnest($1::text[], $2::int[], $3::int[], $4::int[], $5::text[], $6::text[]) AS u(a, h, m, t, y, f)`,
      [
        rows.map((r) => r.id),
        rows.map((r) => r.height),
        rows.map((r) => r.micro),
        rows.map((r) => r.tx),
        rows.map((r) => r.type),
        rows.map((r) => r.fields.join(' ')),
      ],
    );
    const accounts = ids.filter((id) => id.startsWith('ak_'));
    await pool.query('INSERT INTO stats_accounts (account, height, day) SELECT a, 1, 2 FROM unnest($1::text[]) AS a', [
      accounts,
    ]);
    await pool.query(
      `INSERT INTO stats_active_accounts (interval_by, start, account, height) SELECT 'day', 2, a, 1 FROM unnest($1::text[]) AS a`,
      [accounts],
    );

    // the upgrade: the full list of migrations, of which only 0032–0039 and 0095 are pending
    expect(await migrate({ databaseUrl: db.url, schema: SCHEMA }, log)).to.deep.equal(
      ours.map((n) => n.replace(/\.sql$/, '')),
    );

    const stored = await pool.query<{
      account: Buffer;
      height: number;
      micro_index: number;
      tx_index: number;
      tx_type: number;
      fields: string;
    }>(
      `SELECT i.key AS account, a.height, a.micro_index, a.tx_index, a.tx_type, a.fields
         FROM account_transactions a JOIN account_ids i ON i.num = a.account ORDER BY height, micro_index`,
    );
    expect(stored.rows.map((r) => ({ ...r, account: r.account.toString('hex') }))).to.deep.equal(
      rows
        .toSorted((x, y) => x.height - y.height || x.micro - y.micro)
        .map((r) => ({
          account: idKey(r.id).toString('hex'),
          height: r.height,
          micro_index: r.micro,
          tx_index: r.tx,
          tx_type: txTypeCode(r.type),
          fields: r.fields.join(' '),
        })),
    );
    for (const table of ['stats_accounts', 'stats_active_accounts']) {
      const { rows: keys } = await pool.query<{ account: Buffer }>(
        `SELECT i.key AS account FROM ${table} s JOIN account_ids i ON i.num = s.account ORDER BY i.key`,
      );
      expect(
        keys.map((r) => r.account.toString('hex')),
        table,
      ).to.deep.equal(accounts.map((a) => idKey(a).toString('hex')).sort());
    }
    // the indexes the queries read are back
    const { rows: indexes } = await pool.query<{ indexname: string }>(
      `SELECT indexname FROM pg_indexes WHERE schemaname = $1 AND tablename = 'account_transactions' ORDER BY 1`,
      [SCHEMA],
    );
    expect(indexes.map((r) => r.indexname)).to.deep.equal([
      'account_transactions_height',
      'account_transactions_pkey',
      'account_transactions_type',
    ]);
    // a rollback deletes the converted rows with their heights (the cascade trigger names the table)
    await pool.query(
      `INSERT INTO key_blocks (height, hash, prev_hash, prev_key_hash, beneficiary, miner, time_ms, data)
       SELECT h, 'kh_' || h, 'kh_', 'kh_', 'ak_', 'ak_', 0, '{}' FROM generate_series(0, 100) AS h`,
    );
    await pool.query('DELETE FROM key_blocks WHERE height >= 3');
    const left = await pool.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM account_transactions WHERE height >= 3',
    );
    expect(left.rows[0]!.n).to.equal(0);
  });
});
