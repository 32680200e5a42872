/** @module Two devnodes serving the same generated chain: the populator spreads over both; one stops mid-sync and it finishes on the other. */
import { expect } from 'chai';
import prom from 'prom-client';
import { ErrorCode } from '../../../src/base/errors.ts';
import type { Devnode } from '../../../src/devnode/index.ts';
import { startPopulator, type Populator } from '../../../src/indexer/sync/populator.ts';
import { verifyChain } from '../../../src/indexer/maintenance/verify.ts';
import { startFaultProxy, type FaultProxy } from './support/fault-proxy.ts';
import { startHarness, silent, storedTopHash, waitFor, type Harness } from './support/harness.ts';
import { FULL_VERIFY_BATCH } from '../../support/verify-batch.ts';
import { startGeneratedDevnode } from '../../support/devnode.ts';

const GENERATIONS = 40;
const SEED = 'failover-test';

describe('populator with two nodes (NODE_URLS: spread and failover)', function () {
  this.timeout(60_000);
  let h: Harness;
  let second: Devnode;
  let first: FaultProxy;
  let other: FaultProxy;
  let populator: Populator | undefined;
  const registry = new prom.Registry();

  before(async () => {
    // the harness's devnode is the first node; the second generates the same chain from the same seed
    h = await startHarness(GENERATIONS, SEED);
    second = await startGeneratedDevnode(
      { generations: GENERATIONS, microBlocksPerGeneration: 2, txsPerMicroBlock: 4, seed: SEED },
      { accounts: [] },
    );
    // the first node answers slowly, so stopping it lands in the middle of the sync
    first = await startFaultProxy(h.devnode.externalUrl, { slowMs: 15 });
    first.set('slow');
    other = await startFaultProxy(second.externalUrl);
  });
  after(async () => {
    await populator?.stop();
    await first.close();
    await other.close();
    await second.stop();
    await h.close();
  });

  it('both nodes serve the same chain (same seed), so either may answer', async () => {
    const top = async (url: string): Promise<unknown> =>
      ((await (await fetch(`${url}/v2/key-blocks/height/${GENERATIONS}`)).json()) as { hash: unknown }).hash;
    expect(await top(second.externalUrl)).to.equal(await top(h.devnode.externalUrl));
  });

  it('completes the sync on the second node when the first stops mid-sync, and verifies clean', async () => {
    const nodes = { NODE_URL: first.url, NODE_URLS: `${first.url},${other.url}`, FETCH_CONCURRENCY: '2' };
    const cfg = h.config({ ...nodes, BATCH_SIZE: '2' });
    expect(cfg.nodeUrls).to.deep.equal([first.url, other.url]);
    populator = await startPopulator({ cfg, log: silent, registry });
    await waitFor('the first heights to be stored', async () => ((await storedTopHash(h, 'mdw'))?.height ?? -1) >= 5);
    const storedWhenStopped = (await storedTopHash(h, 'mdw'))!.height;
    // the first node goes away: every connection to it is dropped from now on (requests already
    // forwarded finish; closing the proxy here would strand them and hang the devnode's stop)
    first.set('down');
    expect(storedWhenStopped, 'the first node stopped mid-sync').to.be.below(GENERATIONS);
    // requests spread over both nodes while both answer
    const servedBefore = other.stats.requests;
    expect(servedBefore, 'the second node served while the first answered too').to.be.greaterThan(0);
    await populator.synced();
    expect((await storedTopHash(h, 'mdw'))?.hash).to.equal(second.chain.top.hash);
    expect(other.stats.requests).to.be.greaterThan(servedBefore);
    const errors = (await registry.getMetricsAsJSON()).find((m) => m.name === 'mdw_node_request_errors_total');
    expect(
      errors?.values.some((v) => v.labels.code === ErrorCode.NODE_UNREACHABLE && v.value > 0),
      'failed requests to the first node',
    ).to.equal(true);

    // verify reads through the same list: the first node is gone, the second answers (its scratch loaded in batches
    // of 100, FULL_VERIFY_BATCH, not the sync's 2)
    const lines: string[] = [];
    const verified = h.config({ ...nodes, ...FULL_VERIFY_BATCH });
    const report = await verifyChain({ cfg: verified, log: silent, out: (l) => lines.push(l) }, { full: true });
    expect(lines).to.deep.equal([]);
    expect(report.differences).to.equal(0);
    expect(report.checked).to.equal(GENERATIONS + 1);
  });
});
