/**
 * @module `mdw snapshot` round trip (issue 88): exported while the populator writes, imported into another schema that
 * `-v --full` finds equal to the node's chain, followed on by a populator; a snapshot of another network, of a newer
 * migration level, with a damaged part, or into a schema that is not empty, refused with its error; an import whose
 * comparison with the node failed kept, and only compared when run again.
 */
import { expect } from 'chai';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import prom from 'prom-client';
import { AppError, ErrorCode } from '../../../src/base/errors.ts';
import type { Devnode } from '../../../src/devnode/index.ts';
import { startPopulator } from '../../../src/indexer/sync/populator.ts';
import { exportSnapshot } from '../../../src/indexer/maintenance/snapshot-export.ts';
import { importSnapshot } from '../../../src/indexer/maintenance/snapshot-import.ts';
import { MANIFEST_FILE, type SnapshotManifest } from '../../../src/indexer/maintenance/snapshot-manifest.ts';
import { verifyChain } from '../../../src/indexer/maintenance/verify.ts';
import { migrationNames } from '../../../src/db/schema/migrator.ts';
import { populateToTop } from '../../support/populate.ts';
import { startGeneratedDevnode } from '../../support/devnode.ts';
import { FULL_VERIFY_BATCH } from '../../support/verify-batch.ts';
import { startFaultProxy } from './support/fault-proxy.ts';
import { silent, startHarness, storedTopHash, waitFor, type Harness } from './support/harness.ts';

describe('mdw snapshot export and import', function () {
  this.timeout(240_000);
  let h: Harness;
  let work: string;
  let snapshot: string;
  let manifest: SnapshotManifest;
  /** the synced schema's snapshot */
  let synced: string;

  before(async () => {
    // 100 generations: the export still comes while the populator catches up (from height 50, asserted), the import's
    // check still covers every height; 160 loaded and verified 60 more in each of four loads
    h = await startHarness(100, 'snapshot-test');
    work = await mkdtemp(join(tmpdir(), 'mdw-snapshot-'));
    snapshot = join(work, 'snap');
  });
  after(async () => {
    await h.close();
    await rm(work, { recursive: true, force: true });
  });

  /** importInto imports `dir` into `schema` against `cfg`'s node, its lines collected */
  const importInto = async (dir: string, schema: string, env: Record<string, string> = {}) => {
    const lines: string[] = [];
    const report = await importSnapshot(
      { cfg: h.config({ DATABASE_SCHEMA: schema, ...env }), log: silent, out: (l) => lines.push(l) },
      dir,
      { heights: 100, accounts: 100 },
    );
    return { report, lines };
  };
  /** refusal is the AppError `promise` rejects with */
  const refusal = async (promise: Promise<unknown>): Promise<AppError> => {
    const err = await promise.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).to.be.instanceOf(AppError);
    return err as AppError;
  };
  const tables = async (schema: string): Promise<number> =>
    (
      await h.query<{ n: number }>(
        'public',
        `SELECT count(*)::int AS n FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1`,
        [schema],
      )
    )[0]!.n;

  /** indexes are `schema`'s index definitions, the schema's name left out, in order */
  const indexes = async (schema: string): Promise<string[]> =>
    (
      await h.query<{ def: string }>(
        'public',
        `SELECT replace(indexdef, quote_ident(schemaname) || '.', '') AS def FROM pg_indexes
          WHERE schemaname = $1 ORDER BY indexname`,
        [schema],
      )
    ).map((r) => r.def);
  /** constraints are `schema`'s constraints with their tables and definitions, the schema's name left out, in order */
  const constraints = async (schema: string): Promise<string[]> =>
    (
      await h.query<{ c: string }>(
        'public',
        `SELECT t.relname || ' ' || c.conname || ' ' || replace(pg_get_constraintdef(c.oid), quote_ident($1) || '.', '') AS c
           FROM pg_constraint c JOIN pg_class t ON t.oid = c.conrelid JOIN pg_namespace n ON n.oid = t.relnamespace
          WHERE n.nspname = $1 ORDER BY 1`,
        [schema],
      )
    ).map((r) => r.c);

  /** triggers are `schema`'s own triggers (not the foreign keys'), their tables, enabled states and definitions, the
   * schema's name left out, in order */
  const triggers = async (schema: string): Promise<string[]> =>
    (
      await h.query<{ t: string }>(
        'public',
        `SELECT c.relname || ' ' || g.tgname || ' ' || g.tgenabled::text || ' '
                || replace(pg_get_triggerdef(g.oid), quote_ident($1) || '.', '') AS t
           FROM pg_trigger g JOIN pg_class c ON c.oid = g.tgrelid JOIN pg_namespace n ON n.oid = c.relnamespace
          WHERE n.nspname = $1 AND NOT g.tgisinternal ORDER BY 1`,
        [schema],
      )
    ).map((r) => r.t);

  it('exports while the populator writes, at one consistent top', async () => {
    const populator = await startPopulator({ cfg: h.config(), log: silent, registry: new prom.Registry() });
    try {
      await waitFor('half the chain stored', async () => ((await storedTopHash(h, 'mdw'))?.height ?? 0) >= 50, 60_000);
      const before = (await storedTopHash(h, 'mdw'))!.height;
      manifest = await exportSnapshot({ cfg: h.config(), log: silent }, snapshot);
      const after = (await storedTopHash(h, 'mdw'))!.height;
      // the populator was still catching up: it stored heights above the snapshot's top while or after it was taken
      expect(manifest.top.height).to.be.at.least(before).and.below(h.devnode.height());
      expect(after).to.be.at.least(manifest.top.height);
      await populator.synced();
    } finally {
      await populator.stop();
    }
    // the top and identity are the chain's, as the devnode has them
    const [top] = await h.query<{ hash: string }>('mdw', 'SELECT hash FROM key_blocks WHERE height = $1', [
      manifest.top.height,
    ]);
    expect(manifest.top.hash).to.equal(top!.hash);
    expect(manifest.chain).to.deep.equal({
      networkId: h.devnode.chain.options.networkId,
      genesisHash: (await h.query<{ hash: string }>('mdw', 'SELECT hash FROM key_blocks WHERE height = 0'))[0]!.hash,
    });
    expect(manifest.migrations.at(-1)).to.equal(migrationNames().at(-1));
    // every part holds the rows the snapshot saw, no more: key_blocks' count is the top's height + 1
    expect(manifest.parts.find((p) => p.table === 'key_blocks')!.rows).to.equal(manifest.top.height + 1);
    expect(manifest.parts.map((p) => p.table)).to.not.include.members([
      'mdw_migrations',
      'webhooks',
      'api_keys',
      'snapshot_restored',
    ]);
  });

  it('imports into an empty schema, -v --full finds it equal to the chain, and a populator follows on from its top', async () => {
    const { report, lines } = await importInto(snapshot, 'imported');
    // taken while catching up, the snapshot has the balances of the accounts its catch-up touched still to read
    expect(lines).to.deep.equal(['state not compared for AE balances: the populator is still deriving them']);
    // the top and 100 heights below it: every height of a chain this short
    expect(report).to.include({ differences: 0, heightsChecked: Math.min(101, manifest.top.height + 1) });
    expect(report.accountsChecked).to.equal(0);
    expect(await storedTopHash(h, 'imported')).to.deep.equal(manifest.top);
    // new blocks on the node: the populator started on the imported schema goes on from the snapshot's top
    await h.devnode.mineKeyBlock();
    await h.devnode.mineKeyBlock();
    await populateToTop(h.config({ DATABASE_SCHEMA: 'imported' }));
    expect((await storedTopHash(h, 'imported'))!.height).to.equal(h.devnode.height());
    const verified: string[] = [];
    const full = await verifyChain(
      {
        cfg: h.config({ ...FULL_VERIFY_BATCH, DATABASE_SCHEMA: 'imported' }),
        log: silent,
        out: (l) => verified.push(l),
      },
      { full: true },
    );
    expect(verified).to.deep.equal([]);
    expect(full).to.include({ differences: 0, checked: h.devnode.height() + 1 });
  });

  it("compares a synced schema's snapshot with the node's accounts too", async () => {
    synced = join(work, 'synced');
    const taken = await exportSnapshot({ cfg: h.config(), log: silent }, synced);
    expect(taken.top).to.deep.equal(await storedTopHash(h, 'mdw'));
    const { report, lines } = await importInto(synced, 'imported_synced');
    expect(lines).to.deep.equal([]);
    expect(report.differences).to.equal(0);
    expect(report.accountsChecked).to.be.greaterThan(0);
    expect(report.migrated).to.deep.equal([]);
    // every index and constraint the restore dropped before the rows is back, as the source has it
    expect(await indexes('imported_synced')).to.deep.equal(await indexes('mdw'));
    expect(await constraints('imported_synced')).to.deep.equal(await constraints('mdw'));
    // every trigger the restore dropped before the rows is back, on as a freshly migrated schema has it (a disabled
    // one would still copy each row into its transition tables): the harness's mdw_verify, the `-v --full` scratch
    // schema its template migrated (createTestDatabase), which no case here loads
    const migrated = await triggers('mdw_verify');
    expect(migrated).to.have.length.greaterThan(20);
    expect(await triggers('imported_synced')).to.deep.equal(migrated);
  });

  it('keeps a schema whose comparison with the node failed, and the same import run again only compares', async () => {
    // the synced schema's snapshot of the case above (an import only reads its directory): its accounts compared too
    const dir = synced;
    const node = await startFaultProxy(h.devnode.externalUrl);
    try {
      // the accounts' reads go unanswered: the client's timeouts and retries, then the import's error
      node.hang(/\/accounts\//);
      const err = await refusal(importInto(dir, 'compared_again', { NODE_URL: node.url, NODE_TIMEOUT_MS: '300' }));
      expect(err.code).to.equal(ErrorCode.NODE_TIMEOUT);
      expect(err.message).to.contain('schema "compared_again" is restored and migrated');
      expect(err.message).to.contain('the same import run again compares it again');
      const held = await tables('compared_again');
      expect(held).to.be.greaterThan(0);
      node.hang(undefined);
      const { report, lines } = await importInto(dir, 'compared_again', { NODE_URL: node.url });
      expect(lines).to.deep.equal([]);
      expect(report).to.include({ differences: 0 });
      expect(report.accountsChecked).to.be.greaterThan(0);
      // nothing restored twice
      expect(report.ms).to.include({ verify: 0, restore: 0 });
      expect(await tables('compared_again')).to.equal(held);
      // another snapshot into that schema is still refused
      const other = await refusal(importInto(snapshot, 'compared_again'));
      expect(other.code).to.equal(ErrorCode.SNAPSHOT_REFUSED);
    } finally {
      await node.close();
    }
  });

  it('refuses to export a schema that is not migrated, or into a directory that is not empty', async () => {
    const none = await refusal(
      exportSnapshot({ cfg: h.config({ DATABASE_SCHEMA: 'nothing_here' }), log: silent }, join(work, 'none')),
    );
    expect(none.code).to.equal(ErrorCode.SNAPSHOT_REFUSED);
    expect(none.message).to.equal('schema "nothing_here" is not migrated: nothing to export');
    const err = await refusal(exportSnapshot({ cfg: h.config(), log: silent }, snapshot));
    expect(err.code).to.equal(ErrorCode.SNAPSHOT_REFUSED);
    expect(err.message).to.equal(
      `the directory ${snapshot} is not empty: give a new or empty directory for the snapshot`,
    );
  });

  it('refuses a schema that is not empty', async () => {
    const err = await refusal(importInto(snapshot, 'imported'));
    expect(err.code).to.equal(ErrorCode.SNAPSHOT_REFUSED);
    expect(err.message).to.contain('schema "imported" is not empty');
  });

  it("refuses a snapshot of another network than the node's, naming both", async () => {
    let other: Devnode | undefined;
    try {
      other = await startGeneratedDevnode({ generations: 3, seed: 'other-network' }, { networkId: 'ae_other' });
      const err = await refusal(importInto(snapshot, 'wrong_network', { NODE_URL: other.externalUrl }));
      expect(err.code).to.equal(ErrorCode.CHAIN_IDENTITY_MISMATCH);
      expect(err.message).to.contain(`the snapshot holds network ${manifest.chain.networkId}`);
      expect(err.message).to.contain('serves network ae_other');
      expect(await tables('wrong_network')).to.equal(0);
    } finally {
      await other?.stop();
    }
  });

  it('refuses a snapshot of a migration this binary does not know, naming both levels', async () => {
    const newer = join(work, 'newer');
    await cp(snapshot, newer, { recursive: true });
    const path = join(newer, MANIFEST_FILE);
    const m = JSON.parse(await readFile(path, 'utf8')) as SnapshotManifest;
    await writeFile(path, JSON.stringify({ ...m, migrations: [...m.migrations, '9999_from_a_newer_version'] }));
    const err = await refusal(importInto(newer, 'newer_level'));
    expect(err.code).to.equal(ErrorCode.DB_SCHEMA_NEWER);
    expect(err.message).to.contain('at migration 9999_from_a_newer_version');
    expect(err.message).to.contain(`whose newest is ${migrationNames().at(-1)}`);
    expect(await tables('newer_level')).to.equal(0);
  });

  it('drops the schema again when a table restores other rows than the manifest counts', async () => {
    const miscounted = join(work, 'miscounted');
    await cp(snapshot, miscounted, { recursive: true });
    const path = join(miscounted, MANIFEST_FILE);
    const m = JSON.parse(await readFile(path, 'utf8')) as SnapshotManifest;
    const parts = m.parts.map((p) => (p.table === 'key_blocks' ? { ...p, rows: p.rows + 1 } : p));
    await writeFile(path, JSON.stringify({ ...m, parts }));
    const err = await refusal(importInto(miscounted, 'miscounted'));
    expect(err.code).to.equal(ErrorCode.SNAPSHOT_CORRUPT);
    expect(err.message).to.contain(
      `table key_blocks restored ${manifest.top.height + 1} rows, the manifest says ${manifest.top.height + 2}`,
    );
    expect(await tables('miscounted')).to.equal(0);
  });

  it('refuses a damaged part by its checksum, before writing anything', async () => {
    const damaged = join(work, 'damaged');
    await cp(snapshot, damaged, { recursive: true });
    const part = join(damaged, 'transactions.copy.zst');
    const bytes = await readFile(part);
    const middle = bytes.length >> 1;
    bytes[middle] = bytes[middle]! ^ 0xff;
    await writeFile(part, bytes);
    const err = await refusal(importInto(damaged, 'damaged'));
    expect(err.code).to.equal(ErrorCode.SNAPSHOT_CORRUPT);
    expect(err.message).to.match(/part transactions\.copy\.zst has SHA-256 [0-9a-f]{64}, the manifest says/);
    expect(await tables('damaged')).to.equal(0);
  });
});
