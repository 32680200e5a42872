/**
 * @module 0.1.0's migration baseline: a fresh schema migrated by it is the schema the 46 files written before the
 * release left (test/fixtures/migrations-0.0/, frozen as they were) but for the height cascade's one shared
 * function, a schema those files took to 0100 is moved onto the baseline without running its tables' files and ends
 * equal to a fresh one, one they left earlier is refused, and so is a pending file named below an applied one.
 */
import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { AT_0100, BASELINE, ONTO_BASELINE } from '../../../src/db/schema/baseline.ts';
import { migrate, migrationStatus, MIGRATIONS_DIR } from '../../../src/db/schema/migrator.ts';
import { catalogOf } from '../../support/catalog.ts';
import { createTestDatabase, queryOnce } from '../../support/postgres.ts';

const log = pino({ level: 'silent' });
const BEFORE = fileURLToPath(new URL('../../fixtures/migrations-0.0/', import.meta.url));
const MDW = fileURLToPath(new URL('../../../bin/mdw.js', import.meta.url));

describe('the 0.1.0 migration baseline', function () {
  this.timeout(120_000);
  let db: { url: string; drop(): Promise<void> };
  let dir: string;
  /** the baseline's files alone (migrations/ also holds the files written after it) */
  let baselineDir: string;
  before(async () => {
    db = await createTestDatabase();
    dir = await mkdtemp(join(tmpdir(), 'mdw-baseline-'));
    baselineDir = join(dir, 'baseline');
    await copyDir(
      MIGRATIONS_DIR,
      baselineDir,
      (f) => BASELINE.includes(f.replace(/\.sql$/, '')) || f === ONTO_BASELINE,
    );
  });
  after(async () => {
    await db?.drop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const query = async (sql: string, params?: unknown[]): Promise<unknown[]> =>
    (await queryOnce(db.url, sql, params)).rows;
  const logOf = async (schema: string): Promise<string[]> =>
    (await query(`SELECT name FROM "${schema}".mdw_migrations ORDER BY name`)).map((r) => (r as { name: string }).name);

  /** a directory holding the files before the release up to `last` */
  async function before0100(last: string): Promise<string> {
    const prefix = join(dir, `before-${last}`);
    await copyDir(BEFORE, prefix, (f) => f <= `${last}.sql`);
    return prefix;
  }

  it('migrates a fresh schema to the schema the files before the release left, but the shared cascade', async () => {
    expect(await migrate({ databaseUrl: db.url, schema: 'fresh_old', dir: BEFORE }, log)).to.have.length(46);
    expect(await migrate({ databaseUrl: db.url, schema: 'fresh_new', dir: baselineDir }, log)).to.deep.equal(BASELINE);
    const [old, baseline] = [await catalogOf(db.url, 'fresh_old'), await catalogOf(db.url, 'fresh_new')];
    expect(baseline.columns).to.have.length.greaterThan(250);
    // the height cascade: the same four triggers on key_blocks, each deleting from the same tables in the same order,
    // by one shared function in the baseline where the files before it wrote one function per area
    const onKeyBlocks = (c: typeof old): string[] => c.triggers!.filter((t) => t.includes(' ON <schema>.key_blocks '));
    const cascadeFunctions =
      /^<schema>\.(key_blocks_after_delete|\w+_after_key_blocks_delete|cascade_deleted_heights)\(/;
    const deletes = (c: typeof old): Record<string, string[]> =>
      Object.fromEntries(
        onKeyBlocks(c).map((t) => {
          const [, name = '', fn = '', args = ''] =
            /^CREATE TRIGGER (\w+) .* EXECUTE (?:FUNCTION|PROCEDURE) <schema>\.(\w+)\((.*)\)$/.exec(t) ?? [];
          const body = c.functions!.find((f) => f.startsWith(`<schema>.${fn}(`)) ?? '';
          const tables = args
            ? [...args.matchAll(/'(\w+)'/g)].map((m) => m[1]!)
            : [...body.matchAll(/DELETE FROM (\w+)\s+WHERE height IN \(SELECT height FROM old_blocks\)/g)].map(
                (m) => m[1]!,
              );
          return [name, tables];
        }),
      );
    expect(Object.keys(deletes(baseline))).to.have.length(4);
    expect(deletes(baseline)).to.deep.equal(deletes(old));
    expect(Object.values(deletes(old)).flat()).to.have.length(27);
    const without = (c: typeof old): typeof old => ({
      ...c,
      triggers: c.triggers!.filter((t) => !onKeyBlocks(c).includes(t)),
      functions: c.functions!.filter((f) => !cascadeFunctions.test(f)),
    });
    expect(old.functions!.filter((f) => cascadeFunctions.test(f))).to.have.length(4);
    expect(baseline.functions!.filter((f) => cascadeFunctions.test(f))).to.have.length(1);
    // everything else, tables, columns, indexes, constraints, sequences, the other triggers and functions, is equal
    expect(without(baseline)).to.deep.equal(without(old));
    expect(await query('SELECT * FROM fresh_new.sync_state')).to.deep.equal(
      await query('SELECT * FROM fresh_old.sync_state'),
    );
  });

  it('moves a schema at 0100 onto the baseline, its tables as they are and no row touched', async () => {
    await migrate({ databaseUrl: db.url, schema: 'at_0100', dir: BEFORE }, log);
    await query(
      `INSERT INTO at_0100.key_blocks VALUES (7, 'kh_7', 'kh_6', 'kh_6', 'ak_b', 'ak_m', 1700000000000, '{}')`,
    );
    await query(`INSERT INTO at_0100.name_events (name_hash, name, height, micro_index, tx_index, tx_hash, kind, owner)
                 VALUES ('nm_x', 'x.chain', 7, 0, 0, 'th_x', 'claim', 'ak_o')`);
    await query(`UPDATE at_0100.sync_state SET top_height = 7, top_hash = 'kh_7'`);
    const rows = async (): Promise<unknown[]> => [
      ...(await query('SELECT * FROM at_0100.key_blocks')),
      ...(await query('SELECT * FROM at_0100.name_state')),
      ...(await query('SELECT * FROM at_0100.sync_state')),
    ];
    const stored = await rows();
    expect(stored).to.have.length(3);
    expect(
      (await migrationStatus({ databaseUrl: db.url, schema: 'at_0100', dir: baselineDir }, log)).map((s) => s.applied),
    ).to.deep.equal(BASELINE.map(() => false));

    // the baseline's tables are recorded, only its height cascade and the functions' search_path run
    expect(await migrate({ databaseUrl: db.url, schema: 'at_0100', dir: baselineDir }, log), 'files run').to.deep.equal(
      BASELINE.filter((name) => !AT_0100.includes(name)),
    );
    expect(await logOf('at_0100')).to.deep.equal(BASELINE);
    expect(await rows()).to.deep.equal(stored);
    expect(await catalogOf(db.url, 'at_0100')).to.deep.equal(await catalogOf(db.url, 'fresh_new'));
    // and it goes on as a fresh one: a file after the baseline applies, the heights' rows still go with their block
    const later = join(dir, 'later');
    await copyDir(baselineDir, later, () => true);
    await writeFile(join(later, '1010_later.sql'), 'CREATE TABLE later (id integer);\n');
    expect(await migrate({ databaseUrl: db.url, schema: 'at_0100', dir: later }, log)).to.deep.equal(['1010_later']);
    await query('DELETE FROM at_0100.key_blocks WHERE height = 7');
    expect(await query('SELECT * FROM at_0100.name_events')).to.deep.equal([]);
    expect(await query('SELECT * FROM at_0100.name_state')).to.deep.equal([]);
  });

  it('applies the files after the baseline to a schema with stored heights, their areas derived from those heights', async () => {
    await migrate({ databaseUrl: db.url, schema: 'upgraded', dir: baselineDir }, log);
    await query(`INSERT INTO upgraded.key_blocks VALUES
                   (6, 'kh_6', 'kh_5', 'kh_5', 'ak_b', 'ak_m', 1700000000000, '{}'),
                   (7, 'kh_7', 'kh_6', 'kh_6', 'ak_b', 'ak_m', 1700000000001, '{}')`);
    const after = (await readdir(MIGRATIONS_DIR))
      .filter((f) => /^\d{4}_\w+\.sql$/.test(f) && !BASELINE.includes(f.replace(/\.sql$/, '')))
      .map((f) => f.replace(/\.sql$/, ''))
      .sort();
    expect(after).to.include('1007_account_balances');
    expect(await migrate({ databaseUrl: db.url, schema: 'upgraded' }, log)).to.deep.equal(after);
    // the balances of the stored heights are asked from the node by the populator's backfill
    expect(
      await query("SELECT next_height, to_height FROM upgraded.derive_backfill WHERE area = 'balances'"),
    ).to.deep.equal([{ next_height: 6, to_height: 7 }]);
    // and so are the generalized accounts' calls (1008)
    expect(await query("SELECT next_height, to_height FROM upgraded.derive_backfill WHERE area = 'ga'")).to.deep.equal([
      { next_height: 6, to_height: 7 },
    ]);
  });

  it('refuses a schema that the files before the release left short of 0100, saying what to do', async () => {
    await migrate({ databaseUrl: db.url, schema: 'at_0099', dir: await before0100('0099_name_fees_rebooked') }, log);
    const logged = await logOf('at_0099');
    const refusal = await migrate({ databaseUrl: db.url, schema: 'at_0099' }, log).then(
      () => undefined,
      (err: Error & { code?: string }) => err,
    );
    expect(refusal?.code).to.equal('MDW_DB_MIGRATION_REFUSED');
    expect(refusal?.message).to.contain('stopped at 0099_name_fees_rebooked');
    expect(refusal?.message).to.contain('0100_stats_series_counted_intervals');
    expect(refusal?.message).to.contain('Load the chain into a new schema');
    expect(await logOf('at_0099'), 'nothing recorded').to.deep.equal(logged);
    // `mdw migrate` (the operator's migration Job) says so and exits 1
    const cli = spawnSync(process.execPath, [MDW, 'migrate', '--schema', 'at_0099'], {
      encoding: 'utf8',
      env: { PATH: process.env.PATH ?? '', DATABASE_URL: db.url },
      timeout: 60_000,
    });
    expect(cli.status).to.equal(1);
    expect(cli.stderr).to.contain('stopped at 0099_name_fees_rebooked');
    expect(cli.stderr).to.contain('MDW_DB_MIGRATION_REFUSED');
  });

  it('refuses a pending file named below one the schema applied, naming both', async () => {
    const files = join(dir, 'out-of-order');
    await copyDir(baselineDir, files, () => true);
    await writeFile(join(files, '1020_newer.sql'), 'CREATE TABLE newer (id integer);\n');
    await migrate({ databaseUrl: db.url, schema: 'out_of_order', dir: files }, log);
    await writeFile(join(files, '1015_older.sql'), 'CREATE TABLE older (id integer);\n');
    await writeFile(join(files, '1030_newest.sql'), 'CREATE TABLE newest (id integer);\n');
    const refusal = await migrate({ databaseUrl: db.url, schema: 'out_of_order', dir: files }, log).then(
      () => undefined,
      (err: Error & { code?: string }) => err,
    );
    expect(refusal?.code).to.equal('MDW_DB_MIGRATION_REFUSED');
    expect(refusal?.message).to.contain('migration 1015_older is pending');
    expect(refusal?.message).to.contain('named below 1020_newer');
    // all or nothing: neither file ran
    expect(await logOf('out_of_order')).to.deep.equal([...BASELINE, '1020_newer']);
    expect(await query("SELECT to_regclass('out_of_order.newest') AS t")).to.deep.equal([{ t: null }]);
  });
});

async function copyDir(from: string, to: string, keep: (file: string) => boolean): Promise<void> {
  await mkdir(to, { recursive: true });
  for (const f of await readdir(from)) if (f.endsWith('.sql') && keep(f)) await copyFile(join(from, f), join(to, f));
}
