import { expect } from 'chai';
import pino from 'pino';
import pg from 'pg';
import { loadConfig } from '../../src/config/middleware.ts';
import { ensureSchema } from '../../src/cli/ensure-schema.ts';
import { migrationStatus } from '../../src/db/schema/migrator.ts';
import { createTestDatabase } from '../support/postgres.ts';

describe('ensureSchema(cfg, log)', () => {
  const log = pino({ level: 'silent' });

  it('migrates a fresh schema, and needs no DDL once it is up to date', async () => {
    const db = await createTestDatabase();
    try {
      const cfg = loadConfig({ DATABASE_URL: db.url, DATABASE_SCHEMA: 'mdw_g3' });
      await ensureSchema(cfg, log);
      const status = await migrationStatus({ databaseUrl: db.url, schema: 'mdw_g3' }, log);
      expect(status.every((m) => m.applied)).to.equal(true);

      // a reader that may not create anything still starts against the migrated schema
      const admin = new pg.Client({ connectionString: db.url });
      await admin.connect();
      const dbName = new URL(db.url).pathname.slice(1);
      await admin.query("CREATE ROLE mdw_reader LOGIN PASSWORD 'reader'");
      await admin.query(`REVOKE CREATE ON DATABASE ${dbName} FROM PUBLIC`);
      await admin.query('GRANT USAGE ON SCHEMA mdw_g3 TO mdw_reader');
      await admin.query('GRANT SELECT ON ALL TABLES IN SCHEMA mdw_g3 TO mdw_reader');
      await admin.end();
      const readerUrl = new URL(db.url);
      readerUrl.username = 'mdw_reader';
      readerUrl.password = 'reader';
      await ensureSchema(loadConfig({ DATABASE_URL: readerUrl.toString(), DATABASE_SCHEMA: 'mdw_g3' }), log);
    } finally {
      await db.drop();
      const admin = new pg.Client({ connectionString: db.url.replace(/\/[^/]+$/, '/postgres') });
      await admin.connect();
      await admin.query('DROP ROLE IF EXISTS mdw_reader').catch(() => {});
      await admin.end();
    }
  });
});
