/**
 * @module LeanHistogram against prom-client's own Histogram as the oracle: the same observations (values on, between
 * and beyond the bounds, several label sets) give the same exposition text and the same JSON.
 */
import { expect } from 'chai';
import prom from 'prom-client';
import { LeanHistogram } from '../../src/base/lean-histogram.ts';

const CONFIG = {
  name: 'test_lean_seconds',
  help: 'A histogram under test',
  labels: ['target', 'outcome'],
  buckets: [0.005, 0.01, 0.5, 1, 30],
} as const;

/** both: a prom-client Histogram and a LeanHistogram of CONFIG, each on a registry of its own. */
function both() {
  const oracleRegistry = new prom.Registry();
  const oracle = new prom.Histogram({
    name: CONFIG.name,
    help: CONFIG.help,
    labelNames: CONFIG.labels,
    buckets: [...CONFIG.buckets],
    registers: [oracleRegistry],
  });
  const registry = new prom.Registry();
  const lean = new LeanHistogram(registry, CONFIG);
  return { oracle, oracleRegistry, lean, registry };
}

describe('base/lean-histogram', () => {
  it('exports what prom-client’s Histogram exports for the same observations', async () => {
    const { oracle, oracleRegistry, lean, registry } = both();
    const values = [0, 0.001, 0.005, 0.0050001, 0.01, 0.2, 0.5, 1, 1.5, 30, 31, 1e6, 0.3];
    const sets = [
      { target: 'node', outcome: '2xx' },
      { target: 'node', outcome: 'timeout' },
      { target: 'compiler', outcome: '2xx' },
    ];
    sets.forEach((labels, n) => {
      const child = lean.labels(labels);
      for (const v of values.slice(n)) {
        oracle.observe(labels, v);
        child.observe(v);
      }
    });
    // a child looked up again counts into the same series
    lean.labels(sets[0]!).observe(0.02);
    oracle.observe(sets[0]!, 0.02);
    expect(await registry.metrics()).to.equal(await oracleRegistry.metrics());
    // as JSON, without prom-client's `exemplar` (none: exemplars are not enabled)
    const asJson = (value: unknown): unknown =>
      JSON.parse(JSON.stringify(value, (k, v: unknown) => (k === 'exemplar' ? undefined : v)));
    expect(asJson(await registry.getMetricsAsJSON())).to.deep.equal(asJson(await oracleRegistry.getMetricsAsJSON()));
    expect(asJson((await lean.get()).values)).to.deep.equal(asJson((await oracle.get()).values));
  });

  it('forgets its observations on reset, and exports nothing before any', async () => {
    const { oracleRegistry, lean, registry } = both();
    expect(await registry.metrics()).to.equal(await oracleRegistry.metrics());
    lean.labels({ target: 'node', outcome: '2xx' }).observe(1);
    registry.resetMetrics();
    expect(await registry.metrics()).to.equal(await oracleRegistry.metrics());
  });

  it('refuses a value that is no number and a label set without a label, as prom-client does', () => {
    const { lean } = both();
    expect(() => lean.labels({ target: 'node', outcome: '2xx' }).observe(Number.NaN)).to.throw(TypeError);
    expect(() => lean.labels({ target: 'node' } as { target: string; outcome: string })).to.throw(TypeError);
  });
});
