/** @module Crash safety: a populator killed with SIGKILL mid-batch leaves whole heights only; a restart converges. */
import { expect } from 'chai';
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { verifyChain } from '../../../src/indexer/maintenance/verify.ts';
import { startHarness, silent, storedTopHash, waitFor, type Harness } from './support/harness.ts';
import { populateToTop } from '../../support/populate.ts';
import { FULL_VERIFY_BATCH } from '../../support/verify-batch.ts';

const CHILD = fileURLToPath(new URL('./support/populate-child.ts', import.meta.url));

describe('populator killed with SIGKILL', function () {
  this.timeout(90_000);
  let h: Harness;
  before(async () => {
    h = await startHarness(60, 'kill9-test');
  });
  after(async () => {
    await h.close();
  });

  function spawnPopulator(): ChildProcess {
    const env = {
      NODE_URL: h.devnode.externalUrl,
      DATABASE_URL: h.db.url,
      DATABASE_SCHEMA: 'mdw',
      BATCH_SIZE: '5',
      FETCH_CONCURRENCY: '1',
      POLL_INTERVAL_MS: '50',
      LOG_LEVEL: 'silent',
      // the modules' compiled code the run keeps (hooks.ts): compiled again, a start cost a second of CPU more
      NODE_COMPILE_CACHE: process.env.NODE_COMPILE_CACHE,
    };
    return spawn(process.execPath, [CHILD], { env, stdio: ['ignore', 'pipe', 'inherit'] });
  }

  async function verifyStored(full: boolean): Promise<{ checked: number; lines: string[] }> {
    const lines: string[] = [];
    // a full one loads its scratch in batches of 100 (FULL_VERIFY_BATCH)
    const cfg = h.config(full ? FULL_VERIFY_BATCH : {});
    const { checked } = await verifyChain({ cfg, log: silent, out: (l) => lines.push(l) }, { full });
    return { checked, lines };
  }

  it('leaves no gap, duplicate or half-written height, and a restart completes the chain', async () => {
    let previous = -1;
    for (let round = 0; round < 3; round++) {
      const child = spawnPopulator();
      const exited = new Promise((resolve) => child.once('exit', resolve));
      await waitFor(
        'the child to load more heights',
        async () => ((await storedTopHash(h, 'mdw').catch(() => undefined))?.height ?? -1) >= previous + 10,
        30_000,
      );
      // let it get into the middle of the next batch
      await new Promise((resolve) => setTimeout(resolve, 5 + round * 11));
      child.kill('SIGKILL');
      await exited;
      const [{ n, top }] = (await h.query<{ n: number; top: number }>(
        'mdw',
        'SELECT count(*)::int AS n, max(height) AS top FROM key_blocks',
      )) as [{ n: number; top: number }];
      expect(n, 'heights are contiguous from 0').to.equal(top + 1);
      expect(top).to.be.lessThan(h.devnode.height());
      const stored = await verifyStored(false);
      // a populator killed while catching up leaves the balances it gathered to the next one's backfill: pending, not
      // a broken height (the last check below finds them derived)
      const whole = stored.lines.filter((l) => !/^derived areas not compared: .*deriving balances/.test(l));
      expect(whole, 'every stored height is whole').to.deep.equal([]);
      previous = top;
    }
    await populateToTop(h.config());
    const final = await verifyStored(true);
    expect(final).to.deep.equal({ checked: h.devnode.height() + 1, lines: [] });
  });
});
