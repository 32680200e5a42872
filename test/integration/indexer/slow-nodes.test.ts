/**
 * @module Three devnodes serving one chain as NODE_URLS: one quick, one slow that queues (few slots, long latency:
 * the realistic mode), one that drops out mid-sync. The populator loses nothing: the sync completes, `mdw -v`
 * (verifyChain, full JSON) is clean, and the quick node serves the most (the spread follows observed rates).
 */
import { expect } from 'chai';
import prom from 'prom-client';
import type { Devnode, DevnodeOptions } from '../../../src/devnode/index.ts';
import { startPopulator, type Populator } from '../../../src/indexer/sync/populator.ts';
import { verifyChain } from '../../../src/indexer/maintenance/verify.ts';
import { startFaultProxy, type FaultProxy } from './support/fault-proxy.ts';
import { startHarness, silent, storedTopHash, waitFor, type Harness } from './support/harness.ts';
import { startGeneratedDevnode } from '../../support/devnode.ts';

const GENERATIONS = 40;
const SEED = 'slow-nodes-test';

describe('populator with a slow, queueing node and one that drops out (NODE_URLS)', function () {
  this.timeout(120_000);
  let h: Harness;
  let slow: Devnode;
  let leaving: Devnode;
  const proxies: FaultProxy[] = [];
  let populator: Populator | undefined;

  const sameChain = (pacing: Pick<DevnodeOptions, 'latencyMs' | 'regulators'>): Promise<Devnode> =>
    startGeneratedDevnode(
      { generations: GENERATIONS, microBlocksPerGeneration: 2, txsPerMicroBlock: 4, seed: SEED },
      { accounts: [], ...pacing },
    );

  before(async () => {
    // the harness's devnode answers at once; the others generate the same chain from the same seed
    h = await startHarness(GENERATIONS, SEED);
    // 2 workers of 40 ms: at most 50 GETs/s, every further GET waits in the node's queue (100 at most, then 503)
    slow = await sameChain({ latencyMs: 40, regulators: { httpRead: { workers: 2, waiting: 100 } } });
    // slow enough that the sync is still running when it leaves
    leaving = await sameChain({ latencyMs: 10, regulators: { httpRead: { workers: 4, waiting: 100 } } });
    for (const url of [h.devnode.externalUrl, slow.externalUrl, leaving.externalUrl])
      proxies.push(await startFaultProxy(url));
  });
  after(async () => {
    await populator?.stop();
    for (const p of proxies) await p.close();
    await slow.stop();
    await leaving.stop();
    await h.close();
  });

  it('completes the sync, verifies clean, and asks the quick node most', async () => {
    const [quick, queueing, dropping] = proxies as [FaultProxy, FaultProxy, FaultProxy];
    expect(slow.chain.top.hash).to.equal(h.devnode.chain.top.hash);
    expect(leaving.chain.top.hash).to.equal(h.devnode.chain.top.hash);
    const cfg = h.config({
      NODE_URL: quick.url,
      NODE_URLS: [quick.url, queueing.url, dropping.url].join(','),
      BATCH_SIZE: '5',
    });
    populator = await startPopulator({ cfg, log: silent, registry: new prom.Registry() });
    await waitFor('the first heights to be stored', async () => ((await storedTopHash(h, 'mdw'))?.height ?? -1) >= 5);
    expect(dropping.stats.requests, 'the leaving node served before it left').to.be.greaterThan(0);
    // from now on every connection to it is dropped (requests already forwarded finish)
    dropping.set('down');
    expect((await storedTopHash(h, 'mdw'))!.height, 'it left mid-sync').to.be.below(GENERATIONS);
    await populator.synced();
    expect((await storedTopHash(h, 'mdw'))?.hash).to.equal(h.devnode.chain.top.hash);
    expect(queueing.stats.requests, 'the queueing node served too').to.be.greaterThan(0);
    expect(quick.stats.requests, 'the quick node served more than the queueing one').to.be.greaterThan(
      queueing.stats.requests,
    );

    // mdw -v through the same list (the leaving node refuses, the others answer): nothing lost, nothing different
    const lines: string[] = [];
    const report = await verifyChain({ cfg, log: silent, out: (l) => lines.push(l) }, { full: true });
    expect(lines).to.deep.equal([]);
    expect(report.differences).to.equal(0);
    expect(report.checked).to.equal(GENERATIONS + 1);
  });
});
