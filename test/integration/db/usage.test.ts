/** @module `mdw db usage` on a real PostgreSQL: sizes, migrated generation schemas and their heights, as JSON. */
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { migrate } from '../../../src/db/schema/migrator.ts';
import { databaseUsage, generationOfSchema } from '../../../src/db/schema/usage.ts';
import { parseDatabaseReport } from '../../../src/operator/controller/database-report.ts';
import { createTestDatabase, queryOnce } from '../../support/postgres.ts';
import pino from 'pino';

const MDW = new URL('../../../bin/mdw.js', import.meta.url).pathname;
const silent = pino({ level: 'silent' });

describe('generationOfSchema', () => {
  it('reads N of <prefix><N> only', () => {
    expect(generationOfSchema('mdw_g12', 'mdw_g')).to.equal(12);
    for (const name of ['mdw_g', 'mdw_g0', 'mdw_g01', 'mdw_gx', 'mdw_g1a', 'other1', 'mdw_g1234567890'])
      expect(generationOfSchema(name, 'mdw_g'), name).to.equal(undefined);
  });
});

describe('databaseUsage and `mdw db usage` (PostgreSQL)', () => {
  let db: { url: string; drop(): Promise<void> };
  before(async function () {
    this.timeout(120_000);
    db = await createTestDatabase();
    await migrate({ databaseUrl: db.url, schema: 'mdw_g1' }, silent);
    await migrate({ databaseUrl: db.url, schema: 'mdw_g3' }, silent);
    await queryOnce(
      db.url,
      `INSERT INTO mdw_g1.key_blocks (height, hash, prev_hash, prev_key_hash, beneficiary, miner, time_ms, data)
       SELECT h, 'kh_' || h, 'kh_p', 'kh_p', 'ak_b', 'ak_m', h, '{}' FROM generate_series(0, 41) AS h`,
    );
    // generation 1 is owned by a Middleware (recorded by its first write); generation 3 is from before 1010
    await queryOnce(
      db.url,
      `INSERT INTO mdw_g1.schema_identity (network_id, genesis_hash, owner_uid, owner_name)
       VALUES ('ae_uat', 'kh_g', '0b9d6c1e-1111-4c4c-8c8c-000000000001', 'chain/testnet')`,
    );
    await queryOnce(
      db.url,
      `DROP TABLE mdw_g3.schema_identity; DELETE FROM mdw_g3.mdw_migrations WHERE name >= '1010'`,
    );
    // not generations of the prefix: an unmigrated lookalike, another prefix
    await queryOnce(db.url, 'CREATE SCHEMA mdw_gx; CREATE SCHEMA other1; CREATE SCHEMA mdw_g7');
  });
  after(async () => db.drop());

  it('measures the database and each generation schema (migrated, top height, newest migration, owner)', async () => {
    const usage = await databaseUsage(db.url, 'mdw_g');
    const newest = readdirSync(new URL('../../../migrations/', import.meta.url))
      .filter((f) => /^\d{4}_.*\.sql$/.test(f))
      .sort()
      .at(-1)
      ?.replace(/\.sql$/, '');
    const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as {
      version: string;
    };
    expect({ version: usage.version, newestMigration: usage.newestMigration }).to.deep.equal({
      version: pkg.version,
      newestMigration: newest,
    });
    const unowned = { owner_uid: null, owner_name: null, network_id: null };
    const { rows } = await queryOnce<{ bytes: string }>(
      db.url,
      'SELECT pg_database_size(current_database())::text AS bytes',
    );
    expect(usage.databaseBytes).to.be.closeTo(Number(rows[0]?.bytes), 1024 * 1024);
    expect(usage.schemas.map(({ bytes: _b, ...s }) => s)).to.deep.equal([
      {
        name: 'mdw_g1',
        generation: 1,
        migrated: true,
        height: 41,
        migration: newest,
        owner_uid: '0b9d6c1e-1111-4c4c-8c8c-000000000001',
        owner_name: 'chain/testnet',
        network_id: 'ae_uat',
      },
      { name: 'mdw_g3', generation: 3, migrated: true, height: null, migration: '1009_calls_typed', ...unowned },
      { name: 'mdw_g7', generation: 7, migrated: false, height: null, migration: null, ...unowned },
    ]);
    const [g1, g3, g7] = usage.schemas;
    expect(g1?.bytes).to.be.greaterThan(g3?.bytes ?? Infinity); // 42 more rows and their index pages
    expect(g7?.bytes).to.equal(0);
  });

  it('the command prints the same JSON and writes it as the termination message', async function () {
    this.timeout(120_000);
    const dir = mkdtempSync(join(tmpdir(), 'mdw-usage-'));
    try {
      const log = join(dir, 'termination-log');
      const { stdout } = await promisify(execFile)(
        process.execPath,
        [MDW, 'db', 'usage', '--schema-prefix', 'mdw_g', '--termination-log', log],
        { env: { ...process.env, DATABASE_URL: db.url } },
      );
      const printed = JSON.parse(stdout) as { schemas: Array<{ name: string }> };
      expect(printed.schemas.map((s) => s.name)).to.deep.equal(['mdw_g1', 'mdw_g3', 'mdw_g7']);
      expect(JSON.parse(readFileSync(log, 'utf8'))).to.deep.equal(printed);
      // the operator reads the same message back (the Job's termination message)
      expect(parseDatabaseReport(readFileSync(log, 'utf8'))).to.deep.equal(printed);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
