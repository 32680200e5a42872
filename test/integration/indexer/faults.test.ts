/** @module Node faults: 5xx storms, an outage, malformed and slow answers are survived without partial heights. */
import { expect } from 'chai';
import prom from 'prom-client';
import { startPopulator, type Populator } from '../../../src/indexer/sync/populator.ts';
import { startFaultProxy, type FaultProxy } from './support/fault-proxy.ts';
import { startHarness, silent, storedTopHash, verifyClean, waitFor, type Harness } from './support/harness.ts';

describe('populator under node faults', function () {
  this.timeout(90_000);
  let h: Harness;
  let proxy: FaultProxy;
  let populator: Populator | undefined;

  before(async () => {
    h = await startHarness(16, 'faults-test');
    proxy = await startFaultProxy(h.devnode.externalUrl, { slowMs: 1500 });
  });
  after(async () => {
    await populator?.stop();
    await proxy.close();
    await h.close();
  });

  async function status(): Promise<{ status: string; last_error: string | null }> {
    return (
      await h.query<{ status: string; last_error: string | null }>('mdw', 'SELECT status, last_error FROM sync_state')
    )[0]!;
  }

  async function converged(): Promise<void> {
    await waitFor(
      'convergence',
      async () => (await storedTopHash(h, 'mdw'))?.hash === h.devnode.chain.top.hash,
      40_000,
    );
  }

  async function convergedAndClean(): Promise<void> {
    await converged();
    await verifyClean(h);
  }

  it('syncs through a storm of 503s', async () => {
    proxy.set('5xx', 0.3);
    populator = await startPopulator({
      cfg: h.config({ NODE_URL: proxy.url, NODE_TIMEOUT_MS: '500', POLL_INTERVAL_MS: '30' }),
      log: silent,
      registry: new prom.Registry(),
    });
    await populator.synced();
    expect(proxy.stats.faulted).to.be.greaterThan(10);
    await convergedAndClean();
    // a 503 in the last steps leaves node_unavailable behind: the outage below must see its own, not this one
    proxy.set('none');
    await waitFor('a clean step', async () => (await status()).status === 'synced');
  });

  it('survives an outage, records it in sync_state, and catches up afterwards', async () => {
    proxy.set('down');
    await h.devnode.mineKeyBlock();
    await h.devnode.mineKeyBlock();
    let recorded: { status: string; last_error: string | null } | undefined;
    await waitFor('the outage to be recorded', async () => (recorded = await status()).status === 'node_unavailable');
    expect(recorded!.last_error).to.be.a('string');
    proxy.set('none');
    await convergedAndClean();
    await waitFor('the error to clear', async () => (await status()).status === 'synced');
    expect((await status()).last_error).to.equal(null);
  });

  it('survives malformed JSON and answers slower than the timeout', async () => {
    proxy.set('malformed', 0.3);
    await h.devnode.mineKeyBlock();
    // what was loaded through the cut answers stays stored: the -v --full below, after the slow ones, checks it too
    await converged();
    proxy.set('slow', 0.3);
    await h.devnode.mineKeyBlock();
    await convergedAndClean();
    proxy.set('none');
  });
});
