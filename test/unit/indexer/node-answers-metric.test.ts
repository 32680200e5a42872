/**
 * @module mdw_node_requests_total from the populator's tally of answers (indexer/metrics.ts `answered`): each read of
 * the counter has every answer counted before it, once, by node.
 */
import { expect } from 'chai';
import prom from 'prom-client';
import { createIndexerMetrics } from '../../../src/indexer/metrics.ts';

/** counts reads mdw_node_requests_total by node, as a scrape does. */
async function counts(registry: prom.Registry): Promise<Record<string, number>> {
  const metric = registry.getSingleMetric('mdw_node_requests_total')!;
  const values = (await metric.get()).values;
  return Object.fromEntries(values.map((v) => [String(v.labels.node), v.value]));
}

describe('indexer metrics: answers per node', () => {
  it('counts every answer by node, each once, however often the counter is read', async () => {
    const registry = new prom.Registry();
    const metrics = createIndexerMetrics(registry);
    expect(await counts(registry)).to.deep.equal({});
    for (let i = 0; i < 3; i++) metrics.answered('http://a');
    metrics.answered('http://b');
    expect(await counts(registry)).to.deep.equal({ 'http://a': 3, 'http://b': 1 });
    expect(await counts(registry)).to.deep.equal({ 'http://a': 3, 'http://b': 1 });
    metrics.answered('http://b');
    expect(await registry.metrics()).to.include('mdw_node_requests_total{node="http://b"} 2');
    expect(await counts(registry)).to.deep.equal({ 'http://a': 3, 'http://b': 2 });
  });
});
