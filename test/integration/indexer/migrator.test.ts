/** @module Migrations: idempotent, per schema, safe under concurrent starters. */
import { expect } from 'chai';
import pino from 'pino';
import pg from 'pg';
import { migrate, migrationNames, migrationStatus } from '../../../src/db/schema/migrator.ts';
import { createTestDatabase } from '../../support/postgres.ts';

const log = pino({ level: 'silent' });

describe('migrate / migrationStatus', () => {
  let db: { url: string; drop(): Promise<void> };
  before(async () => {
    db = await createTestDatabase();
  });
  after(async () => {
    await db.drop();
  });

  async function tables(schema: string): Promise<string[]> {
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    try {
      const { rows } = await client.query<{ t: string }>(
        'SELECT table_name AS t FROM information_schema.tables WHERE table_schema = $1 ORDER BY 1',
        [schema],
      );
      return rows.map((r) => r.t);
    } finally {
      await client.end();
    }
  }

  it('reports nothing applied on a schema that does not exist, without creating it', async () => {
    const status = await migrationStatus({ databaseUrl: db.url, schema: 'mdw_g0' }, log);
    expect(status.length).to.be.greaterThan(0);
    expect(status.every((s) => !s.applied)).to.equal(true);
    expect(await tables('mdw_g0')).to.deep.equal([]);
  });

  it('creates the schema, applies every migration once, and is idempotent', async () => {
    const first = await migrate({ databaseUrl: db.url, schema: 'mdw_g1' }, log);
    expect(first).to.include('1000_chain');
    expect(await tables('mdw_g1')).to.include.members(['key_blocks', 'transactions', 'sync_state', 'mdw_migrations']);
    expect(await migrate({ databaseUrl: db.url, schema: 'mdw_g1' }, log)).to.deep.equal([]);
    const status = await migrationStatus({ databaseUrl: db.url, schema: 'mdw_g1' }, log);
    expect(status.every((s) => s.applied)).to.equal(true);
  });

  // issue 88: `mdw snapshot import` migrates an empty schema to the snapshot's level, restores, then migrates on
  it("applies only the files named in `only` (a snapshot's level), and the rest at the next run", async () => {
    const names = migrationNames();
    const level = names.slice(0, names.indexOf('1015_kept_counts') + 1);
    expect(await migrate({ databaseUrl: db.url, schema: 'mdw_level', only: level }, log)).to.deep.equal(level);
    const status = await migrationStatus({ databaseUrl: db.url, schema: 'mdw_level' }, log);
    expect(status.filter((s) => s.applied).map((s) => s.name)).to.deep.equal(level);
    expect(await tables('mdw_level'))
      .to.include('account_tx_counts')
      .and.not.include('account_balance_changes');
    expect(await migrate({ databaseUrl: db.url, schema: 'mdw_level' }, log)).to.deep.equal(names.slice(level.length));
  });

  it('lets two concurrent starters race: exactly one applies, both succeed', async () => {
    const results = await Promise.all([
      migrate({ databaseUrl: db.url, schema: 'mdw_g2' }, log),
      migrate({ databaseUrl: db.url, schema: 'mdw_g2' }, log),
      migrate({ databaseUrl: db.url, schema: 'mdw_g2' }, log),
    ]);
    const appliedBy = results.filter((r) => r.length > 0);
    expect(appliedBy).to.have.length(1);
    expect(appliedBy[0]).to.include('1000_chain');
  });

  it('keeps data generations apart: two schemas in one database', async () => {
    await migrate({ databaseUrl: db.url, schema: 'mdw_g3' }, log);
    expect(await tables('mdw_g3')).to.include('key_blocks');
    expect(await tables('mdw_g1')).to.include('key_blocks');
  });
});
