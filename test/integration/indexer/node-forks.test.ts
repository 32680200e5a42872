/** @module Several nodes, one on another fork: it leaves the set (log line, metric) and is never mixed in. */
import { expect } from 'chai';
import prom from 'prom-client';
import type { Devnode } from '../../../src/devnode/index.ts';
import { verifyChain } from '../../../src/indexer/maintenance/verify.ts';
import { NodeClient } from '../../../src/node/client.ts';
import { silent, startHarness, storedTopHash, type Harness } from './support/harness.ts';
import { populateToTop } from '../../support/populate.ts';
import { startGeneratedDevnode } from '../../support/devnode.ts';

const GENERATIONS = 30;
const SEED = 'node-forks';

describe('several nodes, one on another fork', function () {
  this.timeout(60_000);
  let h: Harness;
  let ahead: Devnode;

  before(async () => {
    // the harness's devnode stays on the original chain; `ahead` forks off its top 3 and mines one more
    h = await startHarness(GENERATIONS, SEED);
    ahead = await startGeneratedDevnode(
      { generations: GENERATIONS, microBlocksPerGeneration: 2, txsPerMicroBlock: 4, seed: SEED },
      { accounts: [] },
    );
    await ahead.fork(3);
    await ahead.mineKeyBlock();
  });
  after(async () => {
    await ahead.stop();
    await h.close();
  });

  it('follows the most advanced node and drops the other from the set until it agrees', async () => {
    const forks: [string, boolean][] = [];
    const answered: string[] = [];
    const client = new NodeClient(
      {
        url: [h.devnode.externalUrl, ahead.externalUrl],
        timeoutMs: 5000,
        onFork: (node, dropped) => forks.push([node, dropped]),
        onAnswer: (node) => answered.push(node),
      },
      silent,
    );
    expect(await client.topHeight()).to.equal(GENERATIONS + 1);
    expect(forks).to.deep.equal([[h.devnode.externalUrl, true]]);
    expect(client.nodes.healthy()).to.deep.equal([1]);
    answered.length = 0;
    for (let height = GENERATIONS - 5; height <= GENERATIONS; height++) {
      expect((await client.keyBlock(height)).hash).to.equal(ahead.chain.keyBlocks[height]!.hash);
    }
    expect(new Set(answered)).to.deep.equal(new Set([ahead.externalUrl]));
    // the same second time: no new log line or metric for a node already out
    await client.topHeight();
    expect(forks.length).to.equal(1);
  });

  it('the populator loads the most advanced chain alone, counts the drop, and verifies clean against it', async () => {
    const registry = new prom.Registry();
    const cfg = h.config({ NODE_URLS: `${h.devnode.externalUrl},${ahead.externalUrl}` });
    await populateToTop(cfg, registry);
    expect((await storedTopHash(h, 'mdw'))?.hash).to.equal(ahead.chain.top.hash);
    const drops = (await registry.getMetricsAsJSON()).find((m) => m.name === 'mdw_node_forks_total');
    expect(drops?.values.find((v) => v.labels.node === h.devnode.externalUrl)?.value).to.equal(1);
    const lines: string[] = [];
    const report = await verifyChain(
      { cfg: h.config({ NODE_URL: ahead.externalUrl }), log: silent, out: (l) => lines.push(l) },
      { full: true },
    );
    expect(lines).to.deep.equal([]);
    expect(report.differences).to.equal(0);
  });
});
