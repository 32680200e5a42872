/**
 * @module Issue 14 item 13: every PromQL expression the chart ships (the Grafana dashboard's queries, the
 * PrometheusRule's alerts) parses with Prometheus' own grammar (@prometheus-io/lezer-promql), and every metric and
 * label it names exists in the registries the middleware and the operator build (plus Prometheus' target labels).
 */
import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { parser } from '@prometheus-io/lezer-promql';
import prom from 'prom-client';
import { createApiMetrics } from '../../../src/api/http/metrics.ts';
import { createOutageMetrics } from '../../../src/api/http/outage.ts';
import { createWebsocketMetrics } from '../../../src/events/metrics.ts';
import { createIndexerMetrics } from '../../../src/indexer/metrics.ts';
import type { KubeObject } from '../../../src/operator/kube/client.ts';
import { createOperatorMetrics } from '../../../src/operator/runtime/metrics.ts';
import { kubeSchemaProblems } from '../specs/kube-schema.ts';
import { renderChart } from './helm.ts';
import { ALERTS } from './alert-scenarios.ts';

/** TARGET_LABELS are added by Prometheus to every scraped series (ServiceMonitor targets). */
const TARGET_LABELS = ['namespace', 'pod', 'service', 'job', 'instance', 'container', 'endpoint'];

/** knownSeries maps every series name the processes expose to the labels it may carry. */
function knownSeries(): Map<string, Set<string>> {
  const registry = new prom.Registry();
  createApiMetrics(registry);
  createOutageMetrics(registry);
  createWebsocketMetrics(registry);
  createIndexerMetrics(registry);
  createOperatorMetrics(registry);
  prom.collectDefaultMetrics({ register: registry }); // every process registers them (src/cli/commands)
  // Prometheus' own series per scrape target: 1 when the scrape succeeded, 0 when it failed
  const series = new Map<string, Set<string>>([['up', new Set(TARGET_LABELS)]]);
  for (const metric of registry.getMetricsAsArray()) {
    const m = metric as unknown as { name: string; labelNames?: string[] };
    const labels = new Set([...(m.labelNames ?? []), ...TARGET_LABELS]);
    const histogram = metric instanceof prom.Histogram;
    const names = histogram ? [`${m.name}_bucket`, `${m.name}_sum`, `${m.name}_count`] : [m.name];
    for (const name of names) series.set(name, name.endsWith('_bucket') ? new Set([...labels, 'le']) : labels);
  }
  return series;
}

interface Rule {
  readonly alert: string;
  readonly expr: string;
  readonly for: string;
  readonly labels: Record<string, string>;
  readonly annotations: Record<string, string>;
}

interface Parsed {
  readonly errors: string[];
  readonly metrics: string[];
  readonly labels: string[];
}

/** parsePromQL parses expr and lists syntax errors, the metric names it selects and the label names it uses. */
function parsePromQL(expr: string): Parsed {
  const tree = parser.parse(expr);
  const errors: string[] = [];
  const metrics: string[] = [];
  const labels: string[] = [];
  tree.iterate({
    enter: (node) => {
      const text = expr.slice(node.from, node.to);
      if (node.type.isError)
        errors.push(`syntax error at ${node.from}: ${JSON.stringify(expr.slice(node.from, node.from + 20))}`);
      else if (node.name === 'Identifier' && node.node.parent?.name === 'VectorSelector') metrics.push(text);
      else if (node.name === 'LabelName') labels.push(text);
    },
  });
  return { errors, metrics, labels };
}

describe('the chart monitoring: Grafana dashboard and PrometheusRule (issue 14)', function () {
  this.timeout(60_000);
  let objects: KubeObject[] = [];
  let defaults: KubeObject[] = [];
  const series = knownSeries();

  before(async () => {
    [objects, defaults] = await Promise.all([
      renderChart(
        'mdw',
        'mdw-system',
        '--set',
        'monitoring.dashboard.enabled=true,monitoring.prometheusRule.enabled=true',
      ),
      renderChart('mdw', 'mdw-system'),
    ]);
  });

  const rules = () =>
    (
      objects.find((o) => o.kind === 'PrometheusRule') as unknown as { spec: { groups: { rules: Rule[] }[] } }
    ).spec.groups.flatMap((g) => g.rules);
  const dashboard = () => {
    const cm = objects.find((o) => o.kind === 'ConfigMap') as unknown as { data: Record<string, string> };
    return JSON.parse(cm.data['aeternity-middleware.json'] ?? '{}') as {
      panels: { title: string; targets: { expr: string }[] }[];
      templating: { list: { definition?: string }[] };
    };
  };
  const expressions = (): { where: string; expr: string }[] => [
    ...rules().map((r) => ({ where: `alert ${r.alert}`, expr: r.expr })),
    ...dashboard().panels.flatMap((p) => p.targets.map((t) => ({ where: `panel ${p.title}`, expr: t.expr }))),
  ];

  it('are opt-in: nothing is rendered by default', () =>
    expect(defaults.filter((o) => o.kind === 'PrometheusRule' || o.kind === 'ConfigMap')).to.deep.equal([]));

  it('render as valid Kubernetes objects', async () => {
    for (const obj of objects.filter((o) => o.kind === 'PrometheusRule' || o.kind === 'ConfigMap'))
      expect(await kubeSchemaProblems(obj), `${obj.kind} ${obj.metadata.name}`).to.deep.equal([]);
  });

  it('alert on a stuck, not committing or down populator, a lost node or database, a Degraded Middleware, a high lag, a failing derived area, a 5xx ratio, a failed or slow reload and reconcile errors', () =>
    expect(rules().map((r) => r.alert)).to.have.members(ALERTS));

  it('chart sync, node requests, HTTP per route, websocket, database pool, reload state and the runtime', () => {
    const used = new Set(expressions().flatMap((e) => parsePromQL(e.expr).metrics));
    expect([...used]).to.include.members([
      'mdw_sync_lag_blocks',
      'mdw_sync_height',
      'mdw_node_last_poll_timestamp_seconds',
      'mdw_indexer_last_commit_timestamp_seconds',
      'mdw_dependency_up',
      'mdw_populator_dependency_up',
      'mdw_derive_failing',
      'mdw_node_height',
      'mdw_node_requests_total',
      'mdw_api_http_requests_total',
      'mdw_api_http_request_duration_seconds_bucket',
      'mdw_ws_connections',
      'mdw_ws_slow_clients_closed_total',
      'mdw_api_db_pool_connections',
      'mdw_operator_middleware_reload_state',
      'mdw_operator_middleware_condition',
      'up',
      'process_resident_memory_bytes',
      'nodejs_eventloop_lag_p99_seconds',
    ]);
  });

  it('link every alert to its runbook: a section of docs/operations.md under its name', () => {
    const headings = new Set(
      [
        ...readFileSync(new URL('../../../docs/operations.md', import.meta.url), 'utf8').matchAll(/^#{2,4} (.+)$/gm),
      ].map((m) => `#${m[1]!.toLowerCase()}`),
    );
    const base = 'https://github.com/aeternity/ae_mdw/blob/main/docs/operations.md';
    for (const rule of rules()) {
      const url = rule.annotations.runbook_url ?? '';
      expect(url, rule.alert).to.equal(`${base}#${rule.alert.toLowerCase()}`);
      expect(headings.has(url.slice(base.length)), `${rule.alert}: no section ${url}`).to.equal(true);
    }
  });

  it("leave out, label and time each alert as the chart's values say, the runbooks' base URL too", async () => {
    const objects = await renderChart(
      'mdw',
      'mdw-system',
      '--set',
      [
        'monitoring.prometheusRule.enabled=true',
        'monitoring.prometheusRule.runbookBaseUrl=https://wiki.example.org/mdw',
        'monitoring.prometheusRule.alerts.MiddlewareReloadSlow.enabled=false',
        'monitoring.prometheusRule.alerts.MiddlewarePopulatorStuck.labels.team=chain',
        'monitoring.prometheusRule.alerts.MiddlewarePopulatorStuck.labels.severity=page',
        'monitoring.prometheusRule.alerts.MiddlewareNodeUnavailable.for=10m',
      ].join(','),
    );
    const rendered = (
      objects.find((o) => o.kind === 'PrometheusRule') as unknown as { spec: { groups: { rules: Rule[] }[] } }
    ).spec.groups.flatMap((g) => g.rules);
    expect(await kubeSchemaProblems(objects.find((o) => o.kind === 'PrometheusRule')!)).to.deep.equal([]);
    expect(rendered.map((r) => r.alert)).to.not.include('MiddlewareReloadSlow');
    expect(rendered).to.have.length(rules().length - 1);
    const stuck = rendered.find((r) => r.alert === 'MiddlewarePopulatorStuck')!;
    expect(stuck.labels).to.deep.equal({ severity: 'page', team: 'chain' });
    expect(stuck.annotations.runbook_url).to.equal('https://wiki.example.org/mdw#middlewarepopulatorstuck');
    expect(rendered.find((r) => r.alert === 'MiddlewareNodeUnavailable')!.for).to.equal('10m');
    // the others as they were
    expect(rendered.find((r) => r.alert === 'MiddlewareLagHigh')).to.deep.include({
      labels: { severity: 'warning' },
      for: '15m',
    });
  });

  it('refuse an alert name the chart does not have in its values', async () => {
    const refused = await renderChart(
      'mdw',
      'mdw-system',
      '--set',
      'monitoring.prometheusRule.enabled=true,monitoring.prometheusRule.alerts.MiddlewarePopulatorStuk.enabled=false',
    ).then(
      () => '',
      (err: Error) => err.message,
    );
    expect(refused).to.match(/MiddlewarePopulatorStuk/);
  });

  it('parse every expression with the PromQL grammar', () => {
    const problems = expressions().flatMap(({ where, expr }) => parsePromQL(expr).errors.map((e) => `${where}: ${e}`));
    expect(problems).to.deep.equal([]);
  });

  it('name only metrics and labels that our registries expose', () => {
    const problems: string[] = [];
    for (const { where, expr } of expressions()) {
      const { metrics, labels } = parsePromQL(expr);
      for (const m of metrics) if (!series.has(m)) problems.push(`${where}: no metric ${m}`);
      const allowed = new Set(metrics.flatMap((m) => [...(series.get(m) ?? [])]));
      for (const l of labels) if (!allowed.has(l)) problems.push(`${where}: no label ${l} on ${metrics.join(', ')}`);
    }
    for (const v of dashboard().templating.list) {
      const m = /label_values\((\w+)/.exec(v.definition ?? '')?.[1];
      if (m !== undefined && !series.has(m)) problems.push(`variable: no metric ${m}`);
    }
    expect(problems).to.deep.equal([]);
  });

  it('would catch a typo: a misspelled metric and a broken expression', () => {
    expect(parsePromQL('rate(mdw_sync_heigth[5m])').metrics.filter((m) => !series.has(m))).to.deep.equal([
      'mdw_sync_heigth',
    ]);
    expect(parsePromQL('sum by (route (rate(x[5m]))').errors).to.not.deep.equal([]);
  });
});
