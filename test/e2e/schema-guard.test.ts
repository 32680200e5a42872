/**
 * @module Issue 38, as an operator's mistakes make it: a schema loaded from one network is given a node of another
 * (NODE_URL, NODE_URLS), another Middleware's identity, or a binary older than its migrations. Every role refuses with
 * one line and exit 2, and the first chain is all there afterwards (`mdw -v --full` clean).
 */
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import pino from 'pino';
import { loadConfig } from '../../src/config/middleware.ts';
import { startDevnode, type Devnode } from '../../src/devnode/index.ts';
import { reloadHeights } from '../../src/indexer/maintenance/reload.ts';
import { verifyChain, type VerifyReport } from '../../src/indexer/maintenance/verify.ts';
import { scratchSchemaOf } from '../../src/indexer/maintenance/verify-scratch.ts';
import { createTestDatabase, freePort, queryOnce } from '../support/postgres.ts';
import { populateToTop } from '../support/populate.ts';

const MDW = new URL('../../bin/mdw.js', import.meta.url).pathname;
/**
 * a copy of the run's migrated template (its `-v --full` scratch schema too), as `mdw migrate` leaves a schema: no
 * identity recorded yet, which the first write records; the copy spared the file migrating both
 */
const SCHEMA = 'mdw';
const quiet = pino({ level: 'silent' });
/** neta's chain, the one the schema holds: heights 0 to NETA_TOP */
const NETA_TOP = 8;
const OWNER = { MIDDLEWARE_UID: '7d1c3e9a-0001', MIDDLEWARE_NAME: 'chain/neta' };

describe('a schema knows what it holds (issue 38)', function () {
  this.timeout(180_000);
  let neta: Devnode;
  let netb: Devnode;
  let db: { url: string; drop(): Promise<void> };
  let env: Record<string, string>;

  before(async () => {
    const generated = (seed: string, generations: number) => ({
      port: 0,
      internalPort: 0,
      mine: false,
      generate: { generations, microBlocksPerGeneration: 1, txsPerMicroBlock: 2, seed },
    });
    // chains as short as the cases allow (-H 3 reloads height 3; another network's node below neta's top): what is
    // checked is the identity, the same at any height, and `mdw -v --full` compares every stored height either way
    neta = await startDevnode(generated('neta', NETA_TOP), quiet);
    netb = await startDevnode({ ...generated('netb', 4), networkId: 'ae_othernet' }, quiet);
    db = await createTestDatabase({ migrated: SCHEMA, verifyScratch: true });
    env = {
      PATH: process.env.PATH ?? '',
      NODE_URL: neta.externalUrl,
      DATABASE_URL: db.url,
      DATABASE_SCHEMA: SCHEMA,
      PORT: String(await freePort()),
      WEBSOCKET_ADDRESS: `127.0.0.1:${await freePort()}`,
      LOG_LEVEL: 'error',
      STATUS_MAX_BLOCK_AGE: String(10 ** 9),
    };
    // the first write, under the operator: records the chain and the owner
    await populateToTop(loadConfig({ ...env, ...OWNER }));
  });

  after(async () => {
    await neta.stop();
    await netb.stop();
    await db.drop();
  });

  const stored = async () => ({
    heights: (await queryOnce<{ n: number }>(db.url, `SELECT count(*)::int AS n FROM ${SCHEMA}.key_blocks`)).rows[0]!.n,
    identity: (
      await queryOnce(db.url, `SELECT network_id, genesis_hash, owner_uid, owner_name FROM ${SCHEMA}.schema_identity`)
    ).rows,
  });

  it('records the chain and the owner with the first write', async () => {
    expect(await stored()).to.deep.equal({
      heights: NETA_TOP + 1,
      identity: [
        {
          network_id: 'ae_devnet',
          genesis_hash: neta.chain.keyBlocks[0]!.hash,
          owner_uid: OWNER.MIDDLEWARE_UID,
          owner_name: OWNER.MIDDLEWARE_NAME,
        },
      ],
    });
  });

  it('refuses a node of another network in every role, naming both and NODE_URL, writing nothing', async () => {
    const before = await stored();
    const other = { ...OWNER, NODE_URL: netb.externalUrl };
    // the roles side by side: each refuses at its start, before it writes
    const roles = [['-p'], ['-H', '5'], ['-v'], ['-s'], ['migrate']];
    const runs = await Promise.all(roles.map((args) => mdw(args, other)));
    for (const [i, args] of roles.entries()) {
      const run = runs[i]!;
      expect(run.status, `mdw ${args.join(' ')}: ${run.err}`).to.equal(2);
      expect(run.err, args.join(' ')).to.contain(
        `schema "${SCHEMA}" holds network ae_devnet (genesis ${neta.chain.keyBlocks[0]!.hash}), but node ` +
          `${netb.externalUrl} serves network ae_othernet (genesis ${netb.chain.keyBlocks[0]!.hash}); fix NODE_URL`,
      );
      expect(run.err).to.contain('MDW_CHAIN_IDENTITY_MISMATCH');
    }
    expect(await stored()).to.deep.equal(before);
  });

  it('refuses a node of another network among NODE_URLS instead of following it as a fork', async () => {
    const before = await stored();
    const run = await mdw(['-p'], { ...OWNER, NODE_URLS: `${neta.externalUrl},${netb.externalUrl}` });
    expect(run.status, run.err).to.equal(2);
    expect(run.err).to.contain('the nodes serve different chains');
    expect(run.err).to.contain(`node ${netb.externalUrl} serves network ae_othernet`);
    expect(await stored()).to.deep.equal(before);
  });

  it("refuses another Middleware's identity, and a writer without one, but lets it verify", async () => {
    const before = await stored();
    // both refused at their start, side by side
    const [other, byHand] = await Promise.all([
      mdw(['-p'], { MIDDLEWARE_UID: 'a-second-middleware', MIDDLEWARE_NAME: 'chain/netb' }),
      mdw(['-H', '3']),
    ]);
    expect(other.status, other.err).to.equal(2);
    expect(other.err).to.contain(
      `schema "${SCHEMA}" belongs to Middleware chain/neta (uid ${OWNER.MIDDLEWARE_UID}), not to chain/netb ` +
        '(uid a-second-middleware) (MIDDLEWARE_UID)',
    );
    expect(byHand.status, byHand.err).to.equal(2);
    expect(byHand.err).to.contain('runs without MIDDLEWARE_UID: it may read and verify an owned schema');
    expect(await stored()).to.deep.equal(before);
    expect(await verifyFull()).to.include({ checked: NETA_TOP + 1, differences: 0 });
  });

  it('adopts the node on a schema from before the identity when height 0 agrees, and refuses another', async () => {
    await queryOnce(db.url, `DELETE FROM ${SCHEMA}.schema_identity`);
    const other = await mdw(['-v'], { NODE_URL: netb.externalUrl });
    expect(other.status, other.err).to.equal(2);
    expect(other.err).to.contain(
      `schema "${SCHEMA}" holds a chain whose key block at height 0 is ${neta.chain.keyBlocks[0]!.hash}`,
    );
    await reloadHeights({ cfg: loadConfig({ ...env, ...OWNER }), log: quiet }, [3]);
    expect((await stored()).identity).to.deep.equal([
      {
        network_id: 'ae_devnet',
        genesis_hash: neta.chain.keyBlocks[0]!.hash,
        owner_uid: OWNER.MIDDLEWARE_UID,
        owner_name: OWNER.MIDDLEWARE_NAME,
      },
    ]);
  });

  it('refuses to run on a schema a newer version migrated, naming both versions (rollback)', async () => {
    await queryOnce(db.url, `INSERT INTO ${SCHEMA}.mdw_migrations (name) VALUES ('1099_from_a_newer_version')`);
    try {
      const roles = [['migrate'], ['-p'], ['-s'], ['-v']];
      const runs = await Promise.all(roles.map((args) => mdw(args, OWNER)));
      for (const [i, args] of roles.entries()) {
        const run = runs[i]!;
        expect(run.status, `mdw ${args.join(' ')}: ${run.err}`).to.equal(2);
        expect(run.err).to.match(
          new RegExp(
            `schema "${SCHEMA}" is at migration 1099_from_a_newer_version, newer than this binary, whose newest is \\d{4}_\\w+: `,
          ),
        );
        expect(run.err).to.contain('MDW_DB_SCHEMA_NEWER');
      }
    } finally {
      await queryOnce(db.url, `DELETE FROM ${SCHEMA}.mdw_migrations WHERE name = '1099_from_a_newer_version'`);
    }
    expect(await verifyFull(OWNER)).to.include({ checked: NETA_TOP + 1, differences: 0 });
  });

  it("never drops another Middleware's schema (mdw migrate --drop, the operator's drop Job), and lets its owner", async () => {
    const schemaThere = async (schema = SCHEMA): Promise<boolean> =>
      (await queryOnce(db.url, 'SELECT 1 FROM pg_namespace WHERE nspname = $1', [schema])).rows.length === 1;
    // the scratch `-v --full` leaves emptied beside the schema goes with it
    await queryOnce(db.url, `CREATE SCHEMA IF NOT EXISTS ${scratchSchemaOf(SCHEMA)}`);
    const other = await mdw(['migrate', '--drop'], {
      MIDDLEWARE_UID: 'a-second-middleware',
      MIDDLEWARE_NAME: 'chain/netb',
    });
    expect(other.status, other.err).to.equal(2);
    expect(other.err).to.contain(
      `schema "${SCHEMA}" belongs to Middleware chain/neta (uid ${OWNER.MIDDLEWARE_UID}), not to chain/netb ` +
        '(uid a-second-middleware) (MIDDLEWARE_UID) that would drop it: nothing dropped',
    );
    expect(await schemaThere()).to.equal(true);
    expect((await stored()).heights).to.equal(NETA_TOP + 1);
    const owner = await mdw(['migrate', '--drop'], OWNER);
    expect(owner.status, owner.err).to.equal(0);
    expect(await schemaThere()).to.equal(false);
    expect(await schemaThere(scratchSchemaOf(SCHEMA))).to.equal(false);
  });

  /**
   * verifyFull is `mdw -v --full` in this process, with `extra` over the base env: what the roles' refusals leave
   * behind is checked here, the binary's own start and exit are the refusals' (a start of it costs 1.4 s of CPU)
   */
  const verifyFull = (extra: Record<string, string> = {}): Promise<VerifyReport> =>
    verifyChain({ cfg: loadConfig({ ...env, ...extra }), log: quiet, out: () => {} }, { full: true });

  /** mdw runs the binary to its exit (a role refused at start exits by itself) with `extra` over the base env. */
  async function mdw(
    args: string[],
    extra: Record<string, string> = {},
  ): Promise<{ status: number | null; out: string; err: string }> {
    const child = spawn(process.execPath, [MDW, ...args], {
      env: { ...env, ...extra },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    // a role that was not refused would run until stopped: a minute is far beyond any refusal
    const timer = setTimeout(() => child.kill('SIGTERM'), 60_000);
    const status = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    clearTimeout(timer);
    return { status, out, err };
  }
});
