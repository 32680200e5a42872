/**
 * @module Issue 57: a reload (-H) killed with SIGKILL goes on after its last batch written when started again with the
 * same list (an operator's Job pod restarted, a blue/green reload), another list starts fresh, and `mdw -v` says how
 * far it is on the way, done of total, with the same total as its last line. A node that goes away mid-reload is
 * waited for, said once, and the reload goes on when it answers again.
 */
import { expect } from 'chai';
import { reloadHeights } from '../../../src/indexer/maintenance/reload.ts';
import { saveReloadProgress } from '../../../src/db/writes/reload-progress.ts';
import { createWritePool } from '../../../src/db/connection/pool.ts';
import { verifyChain } from '../../../src/indexer/maintenance/verify.ts';
import { startFaultProxy } from './support/fault-proxy.ts';
import prom from 'prom-client';
import { startPopulator } from '../../../src/indexer/sync/populator.ts';
import { wrappedAe } from '../../support/aex9-truth.ts';
import { exitCode } from '../../support/dev-run.ts';
import { logged, startMdw } from '../../support/mdw-process.ts';
import { silent, startHarness, waitFor, type Harness } from './support/harness.ts';
import { capturedLog } from '../../support/captured-log.ts';

const SCHEMA = 'mdw_g2';

describe('a reload (-H) killed and started again', function () {
  this.timeout(240_000);
  let h: Harness;
  let env: Record<string, string>;
  let top: number;

  before(async () => {
    // 36 generations: the kills come after a third of them, 24 heights (5 batches of 5 at least) before the end
    h = await startHarness(36, 'reload-resume');
    top = h.devnode.height();
    const wae = wrappedAe(h.devnode.chain);
    env = {
      PATH: process.env.PATH ?? '',
      NODE_URL: h.devnode.externalUrl,
      DATABASE_URL: h.db.url,
      BATCH_SIZE: '5',
      FETCH_CONCURRENCY: '1',
      LOG_LEVEL: 'info',
      // a progress line at every step: the lines are what is tested, not their rate
      PROGRESS_LOG_MS: '0',
      ...(wae === '' ? {} : { DEX_WRAPPED_AE: wae }),
    };
  });
  after(async () => {
    await h.close();
  });

  /**
   * rowsOf runs a query naming its schemas on the harness's own connection (none: a table not there yet): the waits
   * below ask every 50 ms, a connection each cost the server a backend's start each time
   */
  const rowsOf = <T extends Record<string, unknown>>(sql: string): Promise<T[]> =>
    h.query<T>('public', sql).catch(() => []);

  const progress = async (): Promise<{ done_through: number; stored_top: number } | undefined> =>
    (
      await rowsOf<{ done_through: number; stored_top: number }>(
        `SELECT done_through, (SELECT max(height) FROM ${SCHEMA}.key_blocks) AS stored_top
           FROM ${SCHEMA}.reload_progress`,
      )
    )[0];

  it('goes on after the last batch it wrote, and `mdw -v` then finds no difference', async () => {
    const list = `0-${top}`;
    const first = startMdw(['-H', list, '--schema', SCHEMA], env);
    await waitFor(
      'the reload to write a third of the list',
      async () => ((await progress())?.done_through ?? -1) >= top / 3,
      120_000,
    );
    first.child.kill('SIGKILL');
    await exitCode(first.child);
    const left = (await progress())!;
    // the progress commits with its batch: the rows stored end exactly where it says
    expect(left.stored_top).to.equal(left.done_through);
    expect(left.done_through).to.be.lessThan(top);

    const second = startMdw(['-H', list, '--schema', SCHEMA], env);
    expect(await exitCode(second.child), second.output()).to.equal(0);
    expect(logged(second, /^resuming an interrupted reload/).map((l) => [l.phase, l.after])).to.deep.equal([
      ['listed', left.done_through],
    ]);
    const lines = logged(second, /^heights reloaded$/);
    const steps = lines.filter((l) => l.done !== undefined);
    // counted from where the first run stopped, towards the whole list
    expect(steps[0]!.from).to.equal(left.done_through + 1);
    expect(steps.map((l) => l.total)).to.satisfy((t: unknown[]) => t.every((x) => x === top + 1));
    expect(steps.map((l) => l.done)).to.deep.equal(
      [...steps.map((l) => l.done as number)].sort((a, b) => a - b),
      'done only grows',
    );
    expect(steps.at(-1)!.done).to.equal(top + 1);
    // it reloaded what was left, not the whole list
    expect(lines.at(-1)!.reloaded).to.equal(top - left.done_through);
    expect(await progress(), 'a completed reload leaves no progress behind').to.equal(undefined);

    // `-v` in this process, its progress lines read back (the binary's summary line: the `-v --full` case below)
    const { log, lines: verifyLines } = capturedLog();
    const differences: string[] = [];
    const report = await verifyChain(
      { cfg: h.config({ ...env, DATABASE_SCHEMA: SCHEMA }), log, out: (l) => differences.push(l) },
      {},
    );
    expect(differences).to.deep.equal([]);
    expect(report).to.include({ checked: top + 1, differences: 0 });
    const logs = (msg: RegExp): Record<string, unknown>[] => verifyLines.filter((l) => msg.test(l.msg));
    const compared = logs(/^verify: heights compared with the node$/);
    expect(compared.length).to.be.greaterThan(1);
    expect(compared.map((l) => l.total)).to.satisfy((t: unknown[]) => t.every((x) => x === top + 1));
    expect(compared.map((l) => l.done)).to.deep.equal(compared.map((_, i) => i + 1));
    expect(typeof compared[0]!.perSecond).to.equal('number');
    const derived = logs(/^verify: derived areas re-derived from the stored rows$/);
    expect(derived.at(-1)!.done).to.equal(derived.at(-1)!.total);
  });

  it('starts another list from its start, and resumes the same list after what it wrote', async () => {
    const { log, lines } = capturedLog();
    const cfg = h.config({ DATABASE_SCHEMA: SCHEMA, PROGRESS_LOG_MS: '0' });
    const interrupt = async (heights: string, doneThrough: number): Promise<void> => {
      const pool = createWritePool(cfg, 'test', log, 1);
      await saveReloadProgress(pool, { heights, phase: 'listed', doneThrough, lowestReplaced: undefined });
      await pool.end();
    };
    await interrupt('0-30', 20);
    expect((await reloadHeights({ cfg, log }, [10, 11, 12])).reloaded).to.equal(3);
    expect(lines.filter((l) => /^an interrupted reload of other heights/.test(String(l.msg)))).to.have.length(1);
    // the same list: 10-14 were written before the interruption
    await interrupt('10-19', 14);
    const tenToNineteen = Array.from({ length: 10 }, (_, i) => 10 + i);
    expect((await reloadHeights({ cfg, log }, tenToNineteen)).reloaded).to.equal(5);
    expect(
      lines.filter((l) => /^resuming an interrupted reload/.test(String(l.msg))).map((l) => l.after),
    ).to.deep.equal([14]);
  });

  it('waits for a node that goes away, says so once, goes on when it answers again, and loses nothing', async () => {
    const proxy = await startFaultProxy(h.devnode.externalUrl);
    try {
      const { log, lines } = capturedLog();
      const said = (msg: RegExp): Record<string, unknown>[] => lines.filter((l) => msg.test(String(l.msg)));
      const schema = 'mdw_g3';
      const cfg = h.config({ DATABASE_SCHEMA: schema, NODE_URL: proxy.url, BATCH_SIZE: '5', PROGRESS_LOG_MS: '0' });
      // the whole chain: enough batches to go away in the middle of
      const heights = Array.from({ length: top + 1 }, (_, i) => i);
      const reloading = reloadHeights({ cfg, log }, heights);
      await waitFor(
        'a third of the heights reloaded',
        async () => said(/^heights reloaded$/).some((l) => Number(l.done) >= heights.length / 3),
        120_000,
      );
      proxy.set('down');
      // past the node client's own tries: the reload itself waits
      await waitFor(
        'the reload to wait for the node',
        async () => said(/^the node does not answer/).length > 0,
        60_000,
      );
      const requestsAway = proxy.stats.requests;
      await waitFor('another try while the node is away', async () => proxy.stats.requests > requestsAway, 60_000);
      proxy.set('none');
      expect((await reloading).reloaded).to.equal(heights.length);
      expect(said(/^the node does not answer/), 'the loss said once').to.have.length(1);
      expect(said(/^the node answers again/), 'the return said once').to.have.length(1);
      // an area whose node reads failed in a batch written meanwhile (the balances) is deferred, as in any load, and
      // derived by the populator's backfill once it runs on the schema
      const populator = await startPopulator({
        cfg: h.config({ DATABASE_SCHEMA: schema }),
        log: silent,
        registry: new prom.Registry(),
      });
      try {
        await waitFor(
          'every deferred area derived',
          async () =>
            (
              await rowsOf<{ n: string }>(
                `SELECT count(*) AS n FROM ${schema}.derive_backfill WHERE next_height <= to_height`,
              )
            )[0]?.n === '0',
          60_000,
        );
      } finally {
        await populator.stop();
      }
      const differences: string[] = [];
      const report = await verifyChain(
        { cfg: h.config({ DATABASE_SCHEMA: schema }), log: silent, out: (l) => differences.push(l) },
        { heights },
      );
      expect(differences).to.deep.equal([]);
      expect(report.checked).to.equal(heights.length);
    } finally {
      await proxy.close();
    }
  });

  it('`-v --full` killed while it loads its scratch schema goes on from it when started again', async () => {
    const scratch = `${SCHEMA}_verify`;
    const scratchDone = async (): Promise<number> =>
      (await rowsOf<{ done_through: number }>(`SELECT done_through FROM ${scratch}.reload_progress`))[0]
        ?.done_through ?? -1;
    const first = startMdw(['-v', '--full', '--schema', SCHEMA], env);
    await waitFor(
      'the scratch load to write a third of the chain',
      async () => (await scratchDone()) >= top / 3,
      120_000,
    );
    first.child.kill('SIGKILL');
    await exitCode(first.child);
    const left = await scratchDone();
    expect(left).to.be.lessThan(top);

    const second = startMdw(['-v', '--full', '--schema', SCHEMA], env);
    expect(await exitCode(second.child), second.output()).to.equal(0);
    expect(second.output()).to.contain(`verified ${top + 1} heights: 0 difference(s)`);
    expect(
      logged(second, /going on from the scratch schema an earlier run left$/).map((l) => l.goingOnAfter),
    ).to.deep.equal([top]);
    // the scratch's own reload resumed after the last batch the killed run wrote, not from height 0
    expect(logged(second, /^resuming an interrupted reload/).map((l) => l.after)).to.deep.equal([left]);
    // emptied once compared: nothing loaded, no reload to go on with
    expect(await scratchDone(), 'its reload progress cleared').to.equal(-1);
    const loaded = await h.query<{ n: string }>('public', `SELECT count(*) AS n FROM ${scratch}.key_blocks`);
    expect(Number(loaded[0]!.n), 'its key blocks truncated').to.equal(0);
  });
});
