/**
 * @module Issue 87 §5: the populator within what a node admits. A node runs a few requests of each kind and queues
 * some more, and refuses the rest at once with 503 (its regulators; here an admitting proxy in front of a devnode,
 * 20 ms a request): the populator never has more reads, nor more dry-runs, in flight at a node than NODE_MAX_READS
 * and NODE_MAX_DRY_RUNS say it admits; where the node admits fewer it takes the refusals as the node's pace and
 * loads the chain all the same; and one node of three refusing everything leaves the other two to load it.
 */
import { expect } from 'chai';
import prom from 'prom-client';
import { ErrorCode } from '../../../src/base/errors.ts';
import { startPopulator, type Populator } from '../../../src/indexer/sync/populator.ts';
import { startAdmittingProxy, type AdmittingProxy } from './support/admitting-proxy.ts';
import { startHarness, silent, storedTopHash, verifyClean, type Harness } from './support/harness.ts';
import { rowsApart } from './support/schema-rows.ts';

const GENERATIONS = 60;
const SEED = 'node-admission';
const HOLD_MS = 20;

/** counts is what a counter labelled by `code` or `kind` counted, by that label. */
async function counts(registry: prom.Registry, name: string): Promise<Record<string, number>> {
  const metric = await registry.getSingleMetric(name)?.get();
  return Object.fromEntries(
    (metric?.values ?? []).map((v) => [String(v.labels.code ?? v.labels.kind), v.value] as const),
  );
}

describe('the populator within what a node admits (NODE_MAX_READS, NODE_MAX_DRY_RUNS)', function () {
  this.timeout(180_000);
  let h: Harness;
  const proxies: AdmittingProxy[] = [];
  let populator: Populator | undefined;

  // one chain (no case mines) and one database, each case's load a schema of its own (the populator migrates it)
  before(async () => {
    h = await startHarness(GENERATIONS, SEED);
  });
  after(() => h?.close());
  afterEach(async () => {
    await populator?.stop();
    populator = undefined;
    for (const p of proxies.splice(0)) await p.close();
  });

  /** sync loads the whole chain into `schema` through the nodes at `urls` */
  const sync = async (schema: string, urls: string[], env: Record<string, string> = {}): Promise<prom.Registry> => {
    const registry = new prom.Registry();
    const cfg = h.config({
      NODE_URL: urls[0]!,
      NODE_URLS: urls.join(','),
      BATCH_SIZE: '20',
      DATABASE_SCHEMA: schema,
      ...env,
    });
    populator = await startPopulator({ cfg, log: silent, registry });
    await populator.synced();
    expect((await storedTopHash(h, schema))?.hash, 'the whole chain').to.equal(h.devnode.chain.top.hash);
    return registry;
  };

  it('never has more reads or dry-runs in flight at the node than it is told the node admits', async () => {
    // a node that admits more than the populator is told: only the populator's own bound holds it
    const node = await startAdmittingProxy(h.devnode.externalUrl, { read: 1000, dryRun: 1000 }, HOLD_MS);
    proxies.push(node);
    await sync('mdw', [node.url], { NODE_MAX_READS: '6', NODE_MAX_DRY_RUNS: '2' });
    expect(node.stats.peak.read, 'reads in flight at once').to.be.within(1, 6);
    expect(node.stats.peak.dryRun, 'dry-runs in flight at once').to.be.within(1, 2);
    expect(node.stats.refused).to.deep.equal({ read: 0, dryRun: 0 });
    await verifyClean(h);
  });

  it('loads the chain from a node that admits fewer than it is told, taking its refusals as its pace', async () => {
    // the defaults (105 and 55), and the adaptive limit's first 32 reads, against a node that admits 5 and 2
    const node = await startAdmittingProxy(h.devnode.externalUrl, { read: 5, dryRun: 2 }, HOLD_MS);
    proxies.push(node);
    const registry = await sync('paced', [node.url]);
    expect(node.stats.refused.read, 'the node refused reads').to.be.above(0);
    // each refusal counted as what it is (the node busy), and none failed a step of the populator (its poll included)
    expect((await counts(registry, 'mdw_node_request_errors_total'))[ErrorCode.NODE_BUSY]).to.equal(
      node.stats.refused.read + node.stats.refused.dryRun,
    );
    expect(await counts(registry, 'mdw_populator_failures_total')).to.deep.equal({});
    // paced, not hammered: the refusals are a small share of the requests it answered
    expect(node.stats.refused.read).to.be.below(0.25 * node.stats.answered.read);
    // its tables as the unhindered load's, which -v --full found the node's: one -v --full of the chain
    expect((await storedTopHash(h, 'mdw'))?.hash, 'the unhindered load (the first case)').to.equal(
      h.devnode.chain.top.hash,
    );
    expect(await rowsApart(h.db.url, 'mdw', 'paced')).to.deep.equal([]);
  });

  it('loads the chain from the other two of three nodes while one refuses everything, within each one’s admission', async () => {
    // three nodes of the same chain: each its own admission (a proxy, counting what it answers and refuses) in front
    // of the one devnode, which admits everything (two devnodes more generated the same chain twice again)
    const refusing = await startAdmittingProxy(h.devnode.externalUrl, { read: 105, dryRun: 55 }, HOLD_MS);
    refusing.refuseAll(true);
    const serving = await Promise.all(
      [0, 1].map(() => startAdmittingProxy(h.devnode.externalUrl, { read: 10, dryRun: 4 }, HOLD_MS)),
    );
    proxies.push(refusing, ...serving);
    await sync('three', [refusing.url, ...serving.map((p) => p.url)], { NODE_MAX_READS: '10', NODE_MAX_DRY_RUNS: '4' });
    // the other two loaded it, each within its admission, never refused
    for (const p of serving) {
      expect(p.stats.answered.read).to.be.above(0);
      expect(p.stats.peak.read).to.be.at.most(10);
      expect(p.stats.peak.dryRun).to.be.at.most(4);
      expect(p.stats.refused).to.deep.equal({ read: 0, dryRun: 0 });
    }
    // the refusing node was left alone at its pace: a few bursts, not a request for every one the others served
    const served = serving.reduce((n, p) => n + p.stats.answered.read, 0);
    expect(refusing.stats.refused.read).to.be.above(0);
    expect(refusing.stats.refused.read, `refused ${refusing.stats.refused.read}, served ${served}`).to.be.below(
      0.25 * served,
    );
  });
});
