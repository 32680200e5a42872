/**
 * @module Issue 57: a migration marked `-- mdw:no-transaction` builds an index with CREATE INDEX CONCURRENTLY while the
 * table is read and written, is recorded once built, and after a crash that left the index invalid runs again.
 */
import { expect } from 'chai';
import pino from 'pino';
import pg from 'pg';
import { copyFileSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { migrate, MIGRATIONS_DIR } from '../../../src/db/schema/migrator.ts';
import { AppError, ErrorCode } from '../../../src/base/errors.ts';
import { createTestDatabase } from '../../support/postgres.ts';
import { waitFor } from '../../support/wait.ts';
import { serveLoaded } from '../../support/served.ts';
import { loadConfig } from '../../../src/config/middleware.ts';

const log = pino({ level: 'silent' });
const NAME = '2000_sync_state_status';
const INDEX = 'sync_state_status_test';

/** a copy of the shipped migrations with one more file, named after them all */
function migrationsWith(sql: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'mdw-migrations-'));
  for (const f of readdirSync(MIGRATIONS_DIR)) copyFileSync(join(MIGRATIONS_DIR, f), join(dir, f));
  writeFileSync(join(dir, `${NAME}.sql`), sql);
  return dir;
}

describe('a migration outside the transaction (CREATE INDEX CONCURRENTLY)', function () {
  this.timeout(60_000);
  let db: { url: string; drop(): Promise<void> };
  let client: pg.Client;
  const dirs: string[] = [];
  // as a migration of a large table is written (docs/operations.md): re-runnable after a crash
  const rerunnable = () =>
    migrationsWith(
      `-- mdw:no-transaction\nDROP INDEX CONCURRENTLY IF EXISTS ${INDEX};\n` +
        `CREATE INDEX CONCURRENTLY ${INDEX} ON sync_state (status);\n`,
    );

  before(async () => {
    db = await createTestDatabase();
    client = new pg.Client({ connectionString: db.url });
    await client.connect();
  });
  after(async () => {
    await client.end();
    await db.drop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  /** a session whose open snapshot the index build waits for, as it waits for a long read of a server */
  async function snapshotHolder(): Promise<pg.Client> {
    const holder = new pg.Client({ connectionString: db.url });
    await holder.connect();
    await holder.query('BEGIN ISOLATION LEVEL REPEATABLE READ');
    await holder.query('SELECT 1');
    return holder;
  }

  /** the migrator's backend once its CREATE INDEX CONCURRENTLY is waiting for older snapshots */
  async function waitingBuild(): Promise<number> {
    let pid: number | undefined;
    await waitFor('the index build to wait for the open snapshot', async () => {
      const { rows } = await client.query<{ pid: number }>(
        `SELECT pid FROM pg_stat_activity WHERE query LIKE 'CREATE INDEX CONCURRENTLY%' AND wait_event = 'virtualxid'`,
      );
      pid = rows[0]?.pid;
      return pid !== undefined;
    });
    return pid!;
  }

  const recorded = async (schema: string): Promise<string[]> =>
    (
      await client.query<{ name: string }>(`SELECT name FROM ${schema}.mdw_migrations WHERE name = $1`, [NAME])
    ).rows.map((r) => r.name);
  const indexState = async (schema: string): Promise<boolean[]> =>
    (
      await client.query<{ valid: boolean }>(
        `SELECT i.indisvalid AS valid FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
          WHERE c.relname = $1 AND c.relnamespace = $2::regnamespace`,
        [INDEX, schema],
      )
    ).rows.map((r) => r.valid);

  /** a schema migrated by the shipped files, the re-runnable file pending, and a snapshot the build will wait for */
  async function migratedWithHolder(schema: string): Promise<{ dir: string; holder: pg.Client }> {
    await migrate({ databaseUrl: db.url, schema }, log);
    const dir = rerunnable();
    dirs.push(dir);
    return { dir, holder: await snapshotHolder() };
  }

  it('builds the index while a server answers and the table is written, and records it once built', async () => {
    const schema = 'mdw_ci';
    const { dir, holder } = await migratedWithHolder(schema);
    const migrating = migrate({ databaseUrl: db.url, schema, dir }, log);
    await waitingBuild();
    // a server answers from the schema meanwhile
    const served = await serveLoaded(
      loadConfig({ DATABASE_URL: db.url, DATABASE_SCHEMA: schema, NODE_URL: 'http://127.0.0.1:1' }),
    );
    const answer = await served.request.get('/mdw/v3/transactions/count');
    await served.close();
    expect([answer.status, answer.body]).to.deep.equal([200, 0]);
    // a plain CREATE INDEX holds a SHARE lock until its transaction ends, which this write would wait for
    await client.query("SET lock_timeout = '10s'");
    const written = await client.query(`UPDATE ${schema}.sync_state SET heartbeat_at = now() RETURNING status`);
    expect(written.rowCount).to.equal(1);
    expect(await recorded(schema), 'not recorded while it builds').to.deep.equal([]);
    await holder.query('COMMIT');
    await holder.end();
    expect(await migrating).to.deep.equal([NAME]);
    expect(await recorded(schema)).to.deep.equal([NAME]);
    expect(await indexState(schema)).to.deep.equal([true]);
    expect(await migrate({ databaseUrl: db.url, schema, dir }, log)).to.deep.equal([]);
  });

  it('after a crash mid-build leaves the index invalid, is not recorded and builds it again at the next start', async () => {
    const schema = 'mdw_cj';
    const { dir, holder } = await migratedWithHolder(schema);
    const migrating = migrate({ databaseUrl: db.url, schema, dir }, log).then(
      () => undefined,
      (err: unknown) => err,
    );
    // the migrator's connection dies as with a killed process
    await client.query('SELECT pg_terminate_backend($1)', [await waitingBuild()]);
    expect(await migrating).to.be.instanceOf(Error);
    await holder.query('COMMIT');
    await holder.end();
    expect(await indexState(schema), 'left invalid').to.deep.equal([false]);
    expect(await recorded(schema)).to.deep.equal([]);

    // a file that does not drop it first leaves it invalid: refused, naming it, and not recorded
    const careless = migrationsWith(
      `-- mdw:no-transaction\nCREATE INDEX CONCURRENTLY IF NOT EXISTS ${INDEX} ON sync_state (status);\n`,
    );
    dirs.push(careless);
    const refused = await migrate({ databaseUrl: db.url, schema, dir: careless }, log).catch((err: unknown) => err);
    expect(refused).to.be.instanceOf(AppError).with.property('code', ErrorCode.DB_MIGRATION_REFUSED);
    expect((refused as Error).message).to.contain(INDEX);
    expect(await recorded(schema)).to.deep.equal([]);

    expect(await migrate({ databaseUrl: db.url, schema, dir }, log)).to.deep.equal([NAME]);
    expect(await indexState(schema)).to.deep.equal([true]);
    expect(await recorded(schema)).to.deep.equal([NAME]);
  });
});
