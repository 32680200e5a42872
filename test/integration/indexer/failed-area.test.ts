/**
 * @module Issue 39: a derived area whose derivation fails is visible where people look. The statistics area is made to
 * fail for real (a constraint its rows break, as a bug would) while the populator follows the chain: the stored totals
 * behind `/mdw/v3/status` list it with its height and cause, `mdw -v` counts it as a difference (non-zero exit), the
 * populator's `mdw_derive_failing{area}` is 1; once the cause is gone all of it clears.
 */
import { expect } from 'chai';
import prom from 'prom-client';
import { createPool, type Pool } from '../../../src/db/connection/pool.ts';
import { storedTotals } from '../../../src/db/queries/sync-state.ts';
import { verifyChain } from '../../../src/indexer/maintenance/verify.ts';
import { startPopulator } from '../../../src/indexer/sync/populator.ts';
import { startHarness, silent, waitFor, type Harness } from './support/harness.ts';

describe('a failing derived area is visible (issue 39)', function () {
  this.timeout(120_000);
  let h: Harness;
  let pool: Pool;
  let populator: Awaited<ReturnType<typeof startPopulator>>;
  const registry = new prom.Registry();

  before(async () => {
    h = await startHarness(12, 'failed-area');
    populator = await startPopulator({ cfg: h.config(), log: silent, registry });
    await populator.synced();
    pool = createPool({ databaseUrl: h.db.url, schema: 'mdw', max: 2 }, silent);
  });
  after(async () => {
    await populator?.stop();
    await pool?.end();
    await h?.close();
  });

  const failing = async (): Promise<string> =>
    (await registry.getSingleMetricAsString('mdw_derive_failing'))
      .split('\n')
      .filter((l) => l.startsWith('mdw_derive_failing{area="stats"}'))
      .join();
  const verify = async (): Promise<{ lines: string[]; differences: number }> => {
    const lines: string[] = [];
    const report = await verifyChain({ cfg: h.config(), log: silent, out: (l) => lines.push(l) }, {});
    return { lines, differences: report.differences };
  };

  it('lists the area, its first underived height and the cause, fails mdw -v, sets the metric, and clears on recovery', async () => {
    expect((await storedTotals(pool)).failedAreas).to.deep.equal([]);
    await h.query('mdw', 'ALTER TABLE stats_generations ADD CONSTRAINT issue39_refused CHECK (false) NOT VALID');
    const first = h.devnode.height() + 1;
    await h.devnode.mineKeyBlock();
    await h.devnode.mineKeyBlock();
    await waitFor('the statistics area to fail', async () => (await storedTotals(pool)).failedAreas.length > 0);
    const [failed] = (await storedTotals(pool)).failedAreas;
    expect(failed).to.include({ area: 'stats', from: first });
    expect(failed!.error).to.match(new RegExp(`^heights ${first}-\\d+: .*issue39_refused`));
    expect(failed!.since).to.be.instanceOf(Date);
    // the chain is followed meanwhile
    await waitFor('the chain to be stored', async () => {
      const top = await h.query<{ top: number }>('mdw', 'SELECT max(height) AS top FROM key_blocks');
      return top[0]!.top === h.devnode.height();
    });
    await waitFor('the metric', async () => (await failing()).endsWith(' 1'));
    const { lines, differences } = await verify();
    expect(differences).to.be.greaterThan(0);
    expect(lines.filter((l) => l.startsWith('derived area stats fails at height'))).to.have.length(1);
    expect(lines.find((l) => l.startsWith('derived area stats'))).to.contain(`at height ${first} `);
    expect(lines).to.include(`derived areas not compared: stats fails at height ${first}`);
    expect(lines.some((l) => l.includes('still deriving'))).to.equal(false);

    await h.query('mdw', 'ALTER TABLE stats_generations DROP CONSTRAINT issue39_refused');
    await waitFor(
      'the statistics area to recover',
      async () => (await h.query('mdw', 'SELECT 1 FROM derive_backfill')).length === 0,
      60_000,
    );
    expect((await storedTotals(pool)).failedAreas).to.deep.equal([]);
    expect(await failing()).to.match(/ 0$/);
    expect(await verify()).to.deep.equal({ lines: [], differences: 0 });
  });
});
