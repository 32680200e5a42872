/**
 * @module The populator on a hyperchain (issue 45 item 2): a generated chain of 31 epochs (holes, validator churn,
 * delegates moving, HCVoteTxs, micro blocks before their key blocks) loads with `-v --full` clean, and its epochs,
 * schedule, validators, delegates and pins equal the devnode's own state; after a populator stopped mid-epoch and
 * resumed, and after a fork across an epoch boundary, too. A chain that is not a hyperchain is recorded as not one.
 */
import { expect } from 'chai';
import pino from 'pino';
import prom from 'prom-client';
import { verifyChain } from '../../../src/indexer/maintenance/verify.ts';
import { startPopulator } from '../../../src/indexer/sync/populator.ts';
import { startHyperchain, type TestHyperchain } from '../../support/hyperchain.ts';
import { startHarness } from '../../integration/indexer/support/harness.ts';
import { populateToTop } from '../../support/populate.ts';
import { waitFor } from '../../support/wait.ts';
import { expectDevnodeState } from './oracle.ts';

const silent = pino({ level: 'silent' });
const TABLES = ['hc_chain', 'hc_epochs', 'hc_schedule', 'hc_produced', 'hc_validators', 'hc_delegates', 'hc_pins'];

async function verifyClean(hc: TestHyperchain, schema: string): Promise<void> {
  const lines: string[] = [];
  const cfg = hc.config({ DATABASE_SCHEMA: schema });
  const report = await verifyChain({ cfg, log: silent, out: (l) => lines.push(l) }, { full: true });
  expect(lines).to.deep.equal([]);
  expect(report.differences).to.equal(0);
  expect(report.checked).to.equal(hc.devnode.height() + 1);
}

/** tableRows is every row of each hyperchain table but its recording time, in a fixed order. */
async function tableRows(hc: TestHyperchain, schema: string): Promise<Record<string, unknown[]>> {
  const rows: Record<string, unknown[]> = {};
  for (const t of TABLES)
    rows[t] = (await hc.query(schema, `SELECT * FROM ${t} ORDER BY 1, 2`)).map(({ recorded_at: _, ...r }) => r);
  return rows;
}

describe('populator on a hyperchain', function () {
  this.timeout(600_000);
  let hc: TestHyperchain;

  before(async () => {
    hc = await startHyperchain({ epochs: 31, extra: 3 });
    await hc.populate();
  });
  after(async () => {
    await hc?.close();
  });

  it('loads 31 epochs with -v --full clean, and every hyperchain row equals the devnode state', async () => {
    expect(hc.devnode.height()).to.equal(31 * 10 + 3);
    await verifyClean(hc, 'mdw');
    const [chain] = await hc.query<{ hyperchain: boolean; staking: string }>('mdw', 'SELECT * FROM hc_chain');
    expect(chain).to.include({ hyperchain: true, staking: hc.devnode.chain.options.hyperchain!.staking });
    await expectDevnodeState(hc, 'mdw');
    // the generator made holes, validator churn and stakes past 2^53: the tables hold them
    const [facts] = await hc.query<{ holes: number; sets: number; big: boolean }>(
      'mdw',
      `SELECT (SELECT count(*)::int FROM hc_produced WHERE hole) AS holes,
              (SELECT count(DISTINCT v)::int FROM (SELECT string_agg(validator, ',' ORDER BY position) AS v
                                                     FROM hc_validators GROUP BY epoch) s) AS sets,
              (SELECT bool_or(stake > 9007199254740993) FROM hc_delegates) AS big`,
    );
    expect(facts!.holes).to.be.above(0);
    expect(facts!.sets).to.be.above(1);
    expect(facts!.big).to.equal(true);
  });

  it('resumes a populator stopped mid-epoch with the same rows as an uninterrupted load', async () => {
    const cfg = hc.config({ DATABASE_SCHEMA: 'stopped', BATCH_SIZE: '7' });
    const populator = await startPopulator({ cfg, log: silent, registry: new prom.Registry() });
    try {
      // batches of 7 heights end mid-epoch (at 48, 55, 62, …): the stop comes between two of them
      await waitFor(
        'the populator past height 45',
        async () => {
          const rows = await hc.query<{ top: number | null }>('stopped', 'SELECT top_height AS top FROM sync_state');
          return (rows[0]?.top ?? 0) >= 45;
        },
        120_000,
      );
    } finally {
      await populator.stop();
    }
    const [{ top }] = (await hc.query<{ top: number }>('stopped', 'SELECT top_height AS top FROM sync_state')) as [
      { top: number },
    ];
    expect(top).to.be.below(hc.devnode.height());
    await populateToTop(cfg);
    expect(await tableRows(hc, 'stopped')).to.deep.equal(await tableRows(hc, 'mdw'));
    await expectDevnodeState(hc, 'stopped');
  });

  it('follows a fork across an epoch boundary: the replaced epoch rows go, the new chain is loaded', async () => {
    // heights 306-313 replaced: the end of epoch 31 at 310 (which fixes epoch 32) among them; a new top shows it
    await hc.devnode.fork(8);
    await hc.devnode.mineKeyBlock();
    await hc.populate();
    await verifyClean(hc, 'mdw');
    await expectDevnodeState(hc, 'mdw');
  });

  it('records a chain that is not a hyperchain as not one, with no hyperchain rows', async () => {
    const h = await startHarness(12, 'not-a-hyperchain');
    try {
      await populateToTop(h.config());
      expect(await h.query('mdw', 'SELECT hyperchain, staking, election, rewards FROM hc_chain')).to.deep.equal([
        { hyperchain: false, staking: null, election: null, rewards: null },
      ]);
      expect(await h.query('mdw', 'SELECT count(*)::int AS n FROM hc_produced')).to.deep.equal([{ n: 0 }]);
    } finally {
      await h.close();
    }
  });
});
