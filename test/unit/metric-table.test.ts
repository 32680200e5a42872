/** @module registerMetrics: a table of declarations registered as prom-client metrics, read at scrape time where asked. */
import { expect } from 'chai';
import prom from 'prom-client';
import { registerMetrics } from '../../src/base/metric-table.ts';

const TABLE = {
  requests: { type: 'counter', name: 't_requests_total', help: 'Requests by route.', labels: ['route'] },
  open: { type: 'gauge', name: 't_open', help: 'Open things.' },
  seconds: { type: 'histogram', name: 't_seconds', help: 'How long.', buckets: [0.5, 2] },
} as const;

describe('registerMetrics', () => {
  it('registers each declaration with its type, help, labels and buckets, on the registry given only', async () => {
    const registry = new prom.Registry();
    const metrics = registerMetrics(registry, TABLE);
    metrics.requests.inc({ route: '/a' }, 2);
    metrics.open.set(3);
    metrics.seconds.observe(1);
    const text = await registry.metrics();
    expect(text).to.include('# HELP t_requests_total Requests by route.\n# TYPE t_requests_total counter\n');
    expect(text).to.include('t_requests_total{route="/a"} 2');
    expect(text).to.include('# TYPE t_open gauge\nt_open 3');
    expect(text).to.include('t_seconds_bucket{le="0.5"} 0\nt_seconds_bucket{le="2"} 1\nt_seconds_bucket{le="+Inf"} 1');
    expect(await prom.register.getSingleMetric('t_open')).to.equal(undefined);
  });

  it('reads the metrics that have a collector at each scrape', async () => {
    const registry = new prom.Registry();
    let open = 1;
    registerMetrics(registry, TABLE, { open: (gauge) => gauge.set(open) });
    expect(await registry.getSingleMetricAsString('t_open')).to.match(/\nt_open 1$/);
    open = 7;
    expect(await registry.getSingleMetricAsString('t_open')).to.match(/\nt_open 7$/);
  });
});
