/**
 * @module The Prometheus metrics the code registers are exactly the ones the docs' metrics tables list, with their
 * labels and types (docs/metrics.md for the populator, the server and the webhook sender, docs/operator.md#metrics for the
 * operator), and no `mdw_…` name in README.md or docs/ is a metric the code does not have.
 */
import { expect } from 'chai';
import { globSync, readFileSync } from 'node:fs';
import prom from 'prom-client';
import { createApiMetrics } from '../../../src/api/http/metrics.ts';
import { createQuotaMetrics } from '../../../src/api/quota/quota-metrics.ts';
import { createWebsocketMetrics } from '../../../src/events/metrics.ts';
import { createWebhookMetrics } from '../../../src/webhooks/metrics.ts';
import { createIndexerMetrics } from '../../../src/indexer/metrics.ts';
import { createOperatorMetrics } from '../../../src/operator/runtime/metrics.ts';
import { createOutageMetrics } from '../../../src/api/http/outage.ts';
import { createProcessMetrics } from '../../../src/cli/process-metrics.ts';
import { codeSpans, markdownFiles, readDoc, ROOT, section, tableRows } from './markdown.ts';

/**
 * The modules that make prom-client metrics: the helper through which the factories below register every metric of
 * their tables (the outbound one through the API's, the populator's and the websocket's), and the operator's; a
 * metric made elsewhere fails the first test.
 */
const FACTORY_MODULES = [
  // every role's metrics, the operator's too, are a table (name, help, type, labels, buckets) this one helper registers
  'src/base/metric-table.ts',
  // prom-client's default process_cpu_* counters, made here without its index (no mdw_ metric)
  'src/base/prom.ts',
];

/**
 * Names in the docs that start with `mdw_` and are no metric: `/v3/status` fields (ae_mdw's), the data generations'
 * schemas (`mdw_g<N>`, `mdw_g1`, `mdw_g2`), the populator's NOTIFY channel (`mdw_chain_<schema>`) and the schema pg_trgm
 * is made in (`mdw_extensions`).
 */
const NOT_METRICS = [
  'mdw_version',
  'mdw_revision',
  'mdw_height',
  'mdw_tx_index',
  'mdw_synced',
  'mdw_syncing',
  'mdw_gens_per_minute',
  'mdw_failed_areas',
  'mdw_aex9_state_tokens',
  'mdw_incomplete_areas',
  'mdw_deferred_builds',
  'mdw_pending_repairs',
  'mdw_node_gaps',
  'mdw_protocol',
  'mdw_epoch',
  'mdw_node_reachable',
  'mdw_g',
  'mdw_g1',
  'mdw_g2',
  'mdw_chain_',
  'mdw_extensions',
];

/** `name{label,label}  type` of every metric the factories register, sorted. */
function registered(...factories: ((registry: prom.Registry) => unknown)[]): string[] {
  const registry = new prom.Registry();
  for (const create of factories) create(registry);
  return registry
    .getMetricsAsArray()
    .map((metric) => {
      // labelNames is prom-client's own field (not in its typings); test/operator/chart/promql.test.ts reads it too
      const { name, labelNames = [] } = metric as unknown as { name: string; labelNames?: string[] };
      const type = (metric as unknown as { type: string }).type;
      return `${name}${labelNames.length > 0 ? `{${labelNames.join(',')}}` : ''}  ${type}`;
    })
    .sort();
}

/** `name{label,label}  type` of every row of a metrics table whose first cell names an `mdw_` metric, sorted. */
function documented(path: string, heading: string): string[] {
  return tableRows(section(readDoc(path), heading))
    .filter((row) => /^`mdw_/.test(row[0]!))
    .map((row) => `${codeSpans(row[0]!).join(' ')}  ${row[1]}`)
    .sort();
}

describe('docs: Prometheus metrics', () => {
  it('registers metrics only in the factories this test reads', () => {
    const makers = globSync('src/**/*.ts', { cwd: ROOT })
      .filter((f) => {
        const code = readFileSync(`${ROOT}${f}`, 'utf8');
        return code.includes("from 'prom-client'") && /new (prom\.)?(Counter|Gauge|Histogram|Summary)\b/.test(code);
      })
      .sort();
    expect(makers).to.deep.equal(FACTORY_MODULES);
  });

  it("lists the populator's, the server's and the sender's metrics, with labels and types, in docs/metrics.md", () => {
    const code = registered(
      createIndexerMetrics,
      createApiMetrics,
      createQuotaMetrics,
      createWebsocketMetrics,
      createWebhookMetrics,
      createOutageMetrics,
      createProcessMetrics,
    );
    expect(code.length).to.be.greaterThan(30);
    expect(documented('docs/metrics.md', '# Metrics')).to.deep.equal(code);
  });

  it("lists the operator's metrics, with labels and types, in docs/operator.md#metrics", () => {
    const code = registered(createOperatorMetrics);
    expect(code.length).to.be.greaterThan(10);
    expect(documented('docs/operator.md', '## Metrics')).to.deep.equal(code);
  });

  it('names no other mdw_ metric anywhere in README.md or docs/', () => {
    const metrics = registered(
      createIndexerMetrics,
      createApiMetrics,
      createQuotaMetrics,
      createWebsocketMetrics,
      createWebhookMetrics,
      createOutageMetrics,
      createProcessMetrics,
      createOperatorMetrics,
    ).map((m) => m.replace(/[{ ].*/, ''));
    // a name ending in `_` is a prefix (`mdw_ws_*`, "names start with `mdw_`"): some metric must start with it
    const known = (name: string): boolean =>
      NOT_METRICS.includes(name) ||
      metrics.includes(name) ||
      (name.endsWith('_') && metrics.some((m) => m.startsWith(name)));
    const unknown = markdownFiles().flatMap((path) =>
      [...readDoc(path).matchAll(/\bmdw_[a-z0-9_]*/g)].filter((m) => !known(m[0])).map((m) => `${path}: ${m[0]}`),
    );
    expect(unknown).to.deep.equal([]);
  });
});
