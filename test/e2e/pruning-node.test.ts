/**
 * @module Issue 16 item 5, end to end: `mdw -H` and `mdw -v` (the binary) and the populator against a devnode
 * started with `--gc-height` (the binary too), alone and beside an archive node serving the same chain.
 */
import { expect } from 'chai';
import { spawn, type ChildProcess } from 'node:child_process';
import pg from 'pg';
import pino from 'pino';
import prom from 'prom-client';
import { loadConfig } from '../../src/config/middleware.ts';
import { contractCalls } from '../../src/db/queries/contract-calls.ts';
import { startDevnode, type Devnode } from '../../src/devnode/index.ts';
import { keyPairFromSeed } from '../../src/devnode/keys.ts';
import { reloadHeights } from '../../src/indexer/maintenance/reload.ts';
import { verifyChain } from '../../src/indexer/maintenance/verify.ts';
import { createTestDatabase, queryOnce } from '../support/postgres.ts';
import { populateToTop } from '../support/populate.ts';

const MDW = new URL('../../bin/mdw.js', import.meta.url).pathname;
// as short as the cases allow (each height is loaded three times and verified in full three times): the seed's chain
// still holds contract calls on both sides of GC_HEIGHT, which the second case requires
const GENERATIONS = 8;
const GC_HEIGHT = 5;
const SEED = 'pruning-e2e';
// one known genesis account on both nodes, so that they serve the same chain
const ACCOUNT = keyPairFromSeed(new Uint8Array(32).fill(7));
const BALANCE = 10n ** 24n;
const quiet = pino({ level: 'silent' });

function run(args: string[], env: Record<string, string>): Promise<{ status: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [MDW, ...args], {
      env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'warn', ...env },
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.on('exit', (status) => resolve({ status, out }));
  });
}

async function startPruningNode(): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(
    process.execPath,
    [
      MDW,
      'devnode',
      ...['--port', '0', '--internal-port', '0', '--key-block-interval', '0', '--micro-block-interval', '0'],
      ...['--generate', String(GENERATIONS), '--seed', SEED, '--gc-height', String(GC_HEIGHT)],
      ...['--beneficiary', keyPairFromSeed(new Uint8Array(32).fill(8)).secretKey],
      ...['--account', `${ACCOUNT.secretKey}:${BALANCE}`],
    ],
    { env: { PATH: process.env.PATH ?? '' } },
  );
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  const until = Date.now() + 30_000;
  while (!/external API: http/.test(out) && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
  const url = /external API: (http:\/\/[\d.:]+)/.exec(out)?.[1];
  if (!url) throw new Error(`the pruning devnode did not start: ${out}`);
  return { child, url };
}

describe('the middleware against a pruning node (--gc-height)', function () {
  this.timeout(120_000);
  let pruning: { child: ChildProcess; url: string };
  let archive: Devnode;
  /**
   * a database for each load (the pruning node's, both nodes', the populator's): each a copy of the run's template with
   * the schema `mdw` and its `-v --full` scratch migrated, as `mdw migrate` and a first `-v --full` leave them (the
   * five migrations the loads and the verifications made in one database were most of PostgreSQL's work for the file)
   */
  const dbs = new Map<string, { url: string; drop(): Promise<void> }>();
  const env = (load: string, nodes: string[]): Record<string, string> => ({
    NODE_URL: nodes[0]!,
    NODE_URLS: nodes.join(','),
    DATABASE_URL: dbs.get(load)!.url,
    DATABASE_SCHEMA: 'mdw',
    NODE_TIMEOUT_MS: '5000',
  });
  const calls = async (load: string) =>
    (
      await queryOnce<{ height: number; call_info: unknown; call_info_pruned: boolean }>(
        dbs.get(load)!.url,
        'SELECT height, call_info, call_info_pruned FROM mdw.contract_calls ORDER BY height',
      )
    ).rows;

  before(async () => {
    pruning = await startPruningNode();
    archive = await startDevnode(
      {
        port: 0,
        internalPort: 0,
        microBlockIntervalMs: 0,
        beneficiarySecret: keyPairFromSeed(new Uint8Array(32).fill(8)).secretKey,
        accounts: [{ secretKey: ACCOUNT.secretKey, balance: BALANCE }],
        generate: { generations: GENERATIONS, seed: SEED },
      },
      quiet,
    );
    for (const load of ['pruned', 'both', 'populated'])
      dbs.set(load, await createTestDatabase({ migrated: 'mdw', verifyScratch: true }));
  });
  after(async () => {
    for (const db of dbs.values()) await db.drop();
    await archive?.stop();
    pruning?.child.kill('SIGTERM');
  });

  it('serves the same chain as the archive node, and 410 for old call info', async () => {
    const top = async (url: string) =>
      ((await (await fetch(`${url}/v2/key-blocks/height/${GENERATIONS}`)).json()) as { hash: string }).hash;
    expect(await top(pruning.url)).to.equal(await top(archive.externalUrl));
    const old = [...archive.chain.txs.values()].find(
      (r) => r.callInfo && r.blockHeight >= 0 && r.blockHeight < GC_HEIGHT,
    );
    const info = (url: string) => fetch(`${url}/v2/transactions/${old!.hash}/info`).then((r) => r.status);
    expect(await info(pruning.url)).to.equal(410);
    expect(await info(archive.externalUrl)).to.equal(200);
  });

  it('mdw -H stores old calls without call info, marked, and goes on; mdw -v calls them unverifiable', async () => {
    const reload = await run(['-H', `0-${GENERATIONS}`], env('pruned', [pruning.url]));
    expect(reload.status, reload.out).to.equal(0);
    expect(reload.out).to.not.contain('MDW_NODE_BAD_RESPONSE');
    // logged once per run, however many calls
    expect(reload.out.match(/garbage-collected state/g)?.length).to.equal(1);
    const rows = await calls('pruned');
    const below = rows.filter((r) => r.height < GC_HEIGHT);
    const above = rows.filter((r) => r.height >= GC_HEIGHT);
    expect(below.length).to.be.greaterThan(1);
    expect(above.length).to.be.greaterThan(0);
    for (const r of below) expect(r).to.include({ call_info: null, call_info_pruned: true });
    for (const r of above) {
      expect(r.call_info_pruned).to.equal(false);
      expect(r.call_info).to.be.an('object');
    }
    // every answer that shows call info says so
    const pool = new pg.Pool({ connectionString: dbs.get('pruned')!.url, options: '-c search_path=mdw' });
    try {
      const contract = (await pool.query<{ contract_id: string }>('SELECT contract_id FROM contract_calls LIMIT 1'))
        .rows[0]!.contract_id;
      const listed = await contractCalls(pool, contract, { limit: 1000, offset: 0 });
      expect(listed.some((c) => c.callInfoPruned && c.callInfo === null)).to.equal(true);
    } finally {
      await pool.end();
    }

    // -v in this process (verifyChain, what the binary's -v runs) and `-v --full` as the binary, its exit and last line
    const lines: string[] = [];
    const report = await verifyChain(
      { cfg: loadConfig(env('pruned', [pruning.url])), log: quiet, out: (line) => lines.push(line) },
      {},
    );
    expect(report, lines.join('\n')).to.include({ differences: 0 });
    expect(report.unverifiable).to.be.greaterThan(0);
    expect(lines.join('\n')).to.match(new RegExp(`height ${below[0]!.height}: unverifiable`));
    const verify = await run(['-v', '--full'], env('pruned', [pruning.url]));
    expect(verify.status, verify.out).to.equal(0);
    expect(verify.out).to.match(/0 difference\(s\), \d+ height\(s\) unverifiable \(garbage-collected state\)/);
    expect(verify.out).to.match(new RegExp(`height ${below[0]!.height}: unverifiable`));
  });

  it('takes the call info from another node that still holds it (NODE_URLS), and then verifies clean', async () => {
    // -H and -v --full in this process (reloadHeights, verifyChain: what the binary runs; its exits are the case's above
    // and the stale -v's below, a start of it about 1 CPU-s)
    const cfg = loadConfig(env('both', [pruning.url, archive.externalUrl]));
    await reloadHeights(
      { cfg, log: quiet },
      Array.from({ length: GENERATIONS + 1 }, (_, h) => h),
    );
    const rows = await calls('both');
    expect(rows.filter((r) => r.call_info_pruned)).to.deep.equal([]);
    expect(rows.every((r) => r.call_info !== null)).to.equal(true);
    const lines: string[] = [];
    const verified = await verifyChain({ cfg, log: quiet, out: (line) => lines.push(line) }, { full: true });
    expect(verified, lines.join('\n')).to.include({ differences: 0, unverifiable: 0 });
    // a database loaded from the pruning node alone: the archive node now has what it lacks
    const stale = await run(['-v', '--full'], env('pruned', [archive.externalUrl]));
    expect(stale.status).to.equal(1);
    expect(stale.out).to.contain('was stored without (pruned node); the node has it now');
  });

  it('the populator syncs through the pruned heights, counting each call in the metric', async () => {
    const registry = new prom.Registry();
    await populateToTop(loadConfig({ ...env('populated', [pruning.url]), POLL_INTERVAL_MS: '50' }), registry);
    const pruned = (await calls('populated')).filter((r) => r.call_info_pruned).length;
    expect(pruned).to.be.greaterThan(1);
    const metric = await registry.getSingleMetricAsString('mdw_indexer_call_info_pruned_total');
    expect(metric).to.contain(`mdw_indexer_call_info_pruned_total ${pruned}`);
  });
});
