/**
 * @module Issue 59: a populator stopped by SIGTERM while it derives an area for stored heights (the balances, whose
 * requests to the node hang behind a proxy here) leaves the area pending, not failing: `mdw -v` then exits 0, and the
 * next start derives it without an error line.
 */
import { expect } from 'chai';
import pino from 'pino';
import { startDevnode, type Devnode } from '../../src/devnode/index.ts';
import { startFaultProxy, type FaultProxy } from '../integration/indexer/support/fault-proxy.ts';
import { createTestDatabase, freePort, queryOnce } from '../support/postgres.ts';
import { waitFor } from '../support/wait.ts';
import { exitCode, runMdw } from '../support/dev-run.ts';
import { logged, startMdw, type MdwProcess } from '../support/mdw-process.ts';

const SCHEMA = 'mdw_stop';
const BALANCES = /^\/v2\/accounts\//;

describe('a populator stopped (SIGTERM) in the middle of deriving an area', function () {
  this.timeout(240_000);
  let devnode: Devnode;
  let proxy: FaultProxy;
  let db: { url: string; drop(): Promise<void> };
  let env: Record<string, string>;
  let populator: MdwProcess | undefined;

  before(async () => {
    [devnode, db] = await Promise.all([
      // 10 generations (were 30): the balances area waits for the catch-up's top whatever its length (it gathers
      // BALANCES_GATHERED heights), so its derivation starts and hangs behind the proxy as on a longer chain
      startDevnode(
        { port: 0, internalPort: 0, generate: { generations: 10, seed: 'e2e-stop-derive' } },
        pino({ level: 'silent' }),
      ),
      createTestDatabase(),
    ]);
    proxy = await startFaultProxy(devnode.externalUrl);
    env = {
      PATH: process.env.PATH ?? '',
      NODE_URL: proxy.url,
      DATABASE_URL: db.url,
      DATABASE_SCHEMA: SCHEMA,
      PORT: String(await freePort()),
      POLL_INTERVAL_MS: '200',
      LOG_LEVEL: 'info',
      // the hanging balance requests wait for the stop, not for a timeout of their own
      NODE_TIMEOUT_MS: '600000',
    };
  });

  after(async () => {
    if (populator && populator.child.exitCode === null) populator.child.kill('SIGKILL');
    await proxy?.close();
    await devnode?.stop();
    await db?.drop();
  });

  const balancesArea = async (): Promise<{ next_height: number; last_error: string | null; failing: boolean }> =>
    (
      await queryOnce<{ next_height: number; last_error: string | null; failing: boolean }>(
        db.url,
        `SELECT next_height, last_error, failing_since IS NOT NULL AS failing FROM ${SCHEMA}.derive_backfill
         WHERE area = 'balances'`,
      )
    ).rows[0]!;

  it('leaves the area pending, with no failure recorded or logged, and exits 0', async () => {
    proxy.hang(BALANCES);
    populator = startMdw(['-p'], env);
    await waitFor(
      'the balances derivation to start (its requests hanging)',
      () => logged(populator!, /^deriving an area for stored heights/).some((l) => l.area === 'balances'),
      120_000,
      100,
    );
    await waitFor('a balance request to hang', () => proxy.stats.paths.some((p) => BALANCES.test(p.split(' ')[1]!)));
    populator.child.kill('SIGTERM');
    expect(await exitCode(populator.child), populator.output()).to.equal(0);
    const area = await balancesArea();
    expect(area, populator.output()).to.include({ last_error: null, failing: false });
    expect(area.next_height).to.equal(0);
    expect(populator.lines().filter((l) => Number(l.level) >= 50)).to.deep.equal([]);
  });

  it('mdw -v then finds nothing failing and exits 0', async () => {
    const { code, output } = await runMdw(['-v'], { ...env, NODE_URL: devnode.externalUrl });
    expect(code, output).to.equal(0);
    expect(output).not.to.match(/fails at height/);
  });

  it('the next start derives the area without an error line', async () => {
    proxy.hang(undefined);
    populator = startMdw(['-p'], env);
    await waitFor(
      'the balances area to be derived',
      () => logged(populator!, /^derived area complete/).some((l) => l.area === 'balances'),
      120_000,
      100,
    );
    populator.child.kill('SIGTERM');
    expect(await exitCode(populator.child), populator.output()).to.equal(0);
    expect(populator.lines().filter((l) => Number(l.level) >= 50)).to.deep.equal([]);
  });
});
