/**
 * How a writer's start checks its schema (src/indexer/identity/guard.ts) with no wait it does not need: the nodes asked
 * while the database is read, the migrator run only where a migration is pending, and a refused schema ending the
 * wait for nodes that do not answer. Also the pool's warm-up the populator starts beside it (src/db/connection/pool.ts).
 */
import { expect } from 'chai';
import { migrate } from '../../../src/db/schema/migrator.ts';
import { createWritePool, warmPool } from '../../../src/db/connection/pool.ts';
import { ErrorCode } from '../../../src/base/errors.ts';
import { guardSchema } from '../../../src/indexer/identity/guard.ts';
import { silent, startHarness, type Harness } from './support/harness.ts';

describe('a writer’s schema check at its start', function () {
  this.timeout(120_000);
  let h: Harness;

  before(async () => {
    h = await startHarness(3, 'guard-start');
  });
  after(async () => {
    await h?.close();
  });

  /** guard checks `schema` as a populator does, counting the migrator's runs. */
  async function guard(schema: string, overrides: Record<string, string> = {}): Promise<number> {
    const cfg = h.config({ DATABASE_SCHEMA: schema, ...overrides });
    let migrations = 0;
    await guardSchema(cfg, silent, {
      writes: true,
      waitForNodes: true,
      migrate: () => {
        migrations++;
        return migrate({ databaseUrl: cfg.databaseUrl, schema }, silent);
      },
    });
    return migrations;
  }

  it('migrates a new schema, and runs no migrator on one with every migration applied', async () => {
    expect(await guard('guard_new')).to.equal(1);
    expect(await guard('guard_new')).to.equal(0);
    const identity = await h.query<{ network_id: string }>('guard_new', 'SELECT network_id FROM schema_identity');
    expect(identity).to.have.length(1);
  });

  it('refuses a schema a newer version migrated at once, while its nodes do not answer', async () => {
    await guard('guard_newer');
    await h.query('guard_newer', `INSERT INTO mdw_migrations (name) VALUES ('9999_from_the_future.sql')`);
    const started = Date.now();
    // a node nobody listens on: a wait for it would back off for minutes
    const refused = await guard('guard_newer', { NODE_URL: 'http://127.0.0.1:9' }).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect((refused as { code?: string } | undefined)?.code).to.equal(ErrorCode.DB_SCHEMA_NEWER);
    expect(Date.now() - started).to.be.lessThan(10_000);
  });

  it('warms a pool with connections left idle, and never fails for a database away', async () => {
    const pool = createWritePool(h.config({ DATABASE_SCHEMA: 'guard_new' }), 'guard-start', silent, 5);
    await warmPool(pool, 3);
    expect([pool.totalCount, pool.idleCount]).to.deep.equal([3, 3]);
    await pool.end();
    const away = createWritePool(
      h.config({ DATABASE_URL: 'postgres://nobody@127.0.0.1:9/none' }),
      'guard-start',
      silent,
      3,
    );
    await warmPool(away, 3);
    expect(away.totalCount).to.equal(0);
    await away.end();
  });
});
