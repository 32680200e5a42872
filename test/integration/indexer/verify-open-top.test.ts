/**
 * @module -v and -v --full after a populator stopped inside an open generation, the node adding micro blocks to it after
 * (issue 79): reported and counted apart, not a difference; the part stored still compared.
 */
import { expect } from 'chai';
import prom from 'prom-client';
import { startPopulator } from '../../../src/indexer/sync/populator.ts';
import { openTopLine, verifyChain, type VerifyReport } from '../../../src/indexer/maintenance/verify.ts';
import { reloadHeights } from '../../../src/indexer/maintenance/reload.ts';
import { startHarness, silent, storedTopHash, verifyClean, waitFor, type Harness } from './support/harness.ts';
import { addMicroBlock } from './support/micro-blocks.ts';
import { populateToTop } from '../../support/populate.ts';
import { runMdw } from '../../support/dev-run.ts';

describe('verify (-v) of a top generation stored while open, which the node has more of now (issue 79)', function () {
  this.timeout(180_000);
  let h: Harness;
  let top: number;

  before(async () => {
    h = await startHarness(6, 'verify-open-top');
  });
  after(async () => {
    await h?.close();
  });

  async function verify(full: boolean): Promise<{ lines: string[]; report: VerifyReport }> {
    const lines: string[] = [];
    const report = await verifyChain({ cfg: h.config(), log: silent, out: (l) => lines.push(l) }, { full });
    return { lines, report };
  }

  it('reports it apart from the differences, of which there are none, in -v and -v --full, and exits 0', async () => {
    // the populator follows the node into a new generation and stores its key block and first micro block
    const populator = await startPopulator({ cfg: h.config(), log: silent, registry: new prom.Registry() });
    try {
      await h.devnode.mineKeyBlock();
      await addMicroBlock(h.devnode);
      top = h.devnode.height();
      const last = h.devnode.chain.top.micro.at(-1)!.hash;
      await waitFor('the populator to store the open generation', async () => {
        const [stored] = await h.query<{ hash: string }>(
          'mdw',
          'SELECT hash FROM micro_blocks ORDER BY height DESC, micro_index DESC LIMIT 1',
        );
        return stored?.hash === last;
      });
      // and has derived what it derives beside the chain (a note of -v otherwise, not a difference either)
      await waitFor(
        'the populator to derive the areas beside the chain',
        async () => (await h.query('mdw', 'SELECT area FROM derive_backfill')).length === 0,
      );
    } finally {
      await populator.stop();
    }
    // stopped there; the node adds a micro block to the same generation
    await addMicroBlock(h.devnode);
    expect(h.devnode.height()).to.equal(top);
    const open = { height: top, stored: 1, node: 2 };
    for (const full of [false, true]) {
      const { lines, report } = await verify(full);
      expect(lines, `full: ${full}`).to.deep.equal([openTopLine(open)]);
      expect(report).to.include({ differences: 0, checked: top + 1 });
      expect(report.openTop).to.deep.equal(open);
    }
    // the binary, as a CronJob runs it: the line, the summary, exit status 0
    const { code, output } = await runMdw(['-v'], {
      NODE_URL: h.devnode.externalUrl,
      DATABASE_URL: h.db.url,
      DATABASE_SCHEMA: 'mdw',
      LOG_LEVEL: 'silent',
    });
    expect(code, output).to.equal(0);
    expect(output.trim().split('\n').slice(-2)).to.deep.equal([
      openTopLine(open),
      `verified ${top + 1} heights: 0 difference(s), 1 top generation stored while open (height ${top}: not a difference)`,
    ]);
  });

  it('still reports it once the node closed the generation with its next key block', async () => {
    await h.devnode.mineKeyBlock();
    const { lines, report } = await verify(false);
    expect(lines).to.deep.equal([openTopLine({ height: top, stored: 1, node: 2 })]);
    expect(report.differences).to.equal(0);
  });

  it('counts a difference in the part stored, and not below the stored top', async () => {
    const [victim] = await h.query<{ hash: string }>(
      'mdw',
      'SELECT hash FROM transactions WHERE height = $1 ORDER BY micro_index, tx_index LIMIT 1',
      [top],
    );
    await h.query('mdw', 'DELETE FROM transactions WHERE hash = $1', [victim!.hash]);
    const { lines, report } = await verify(false);
    expect(report.differences).to.be.above(0);
    expect(lines.join('\n')).to.contain(`height ${top}: micro block`).and.to.contain('transaction count differs');
    expect(report.openTop).to.deep.equal({ height: top, stored: 1, node: 2 });
    // the height reloaded whole and the next one missing below a stored top: a generation short of its micro blocks
    // below the top is a difference
    await reloadHeights({ cfg: h.config(), log: silent }, [top]);
    await h.devnode.mineKeyBlock();
    await populateToTop(h.config());
    await h.query('mdw', 'DELETE FROM micro_blocks WHERE height = $1 AND micro_index = 1', [top]);
    expect((await storedTopHash(h, 'mdw'))!.height).to.be.above(top);
    const below = await verify(false);
    expect(below.report.openTop).to.equal(undefined);
    expect(below.lines.join('\n')).to.contain(`height ${top}: micro block count differs: db 1 node 2`);
    await reloadHeights({ cfg: h.config(), log: silent }, [top]);
  });

  it('is whole again once the populator ran', async () => {
    await populateToTop(h.config());
    await verifyClean(h);
    expect((await verify(false)).report.openTop).to.equal(undefined);
  });
});
