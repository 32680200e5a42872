/**
 * @module The series a Middleware exports through the faults its alerts are for, one sample per scrape, as
 * `promtool test rules` reads them. What each role exports in a fault is what the running roles were seen to export
 * (test/integration/indexer/populator-fault-metrics.test.ts records the populator's; issue 90 the server's): the
 * populator's lag NaN and its node height frozen while its node is away, its node height growing and its stored top
 * flat while PostgreSQL is, each dependency gauge 0 from the first scrape after the fault.
 */
import type { RuleTest } from '../../promtool/promtool.ts';

/** ALERTS: every alert the chart's PrometheusRule holds, by name. */
export const ALERTS = [
  'MiddlewarePopulatorStuck',
  'MiddlewarePopulatorNotCommitting',
  'MiddlewareNodeUnavailable',
  'MiddlewareDatabaseUnavailable',
  'MiddlewarePopulatorDown',
  'MiddlewareDegraded',
  'MiddlewareLagHigh',
  'MiddlewareDerivedAreaFailing',
  'MiddlewareHttp5xxRatio',
  'MiddlewareReloadFailed',
  'MiddlewareReloadSlow',
  'MiddlewareOperatorReconcileErrors',
];

/** STEP_SECONDS is a scrape interval: the Middleware's ServiceMonitor's default (spec.monitoring.interval). */
export const STEP_SECONDS = 30;
/** SAMPLES: 36 minutes of scrapes, enough for the slowest alert (MiddlewarePopulatorStuck: 15 + 5 minutes). */
const SAMPLES = 72;
/** FAULT is the sample (10 minutes in) of the last scrape before the fault; the next one is the first to show it. */
export const FAULT = 20;

export type Fault = 'none' | 'node stopped' | 'database stopped' | 'populator stopped' | 'reload failed';

type Value = number | 'NaN' | 'stale';
type Series = { series: string; values: string };

const NS = 'mdw';
const POPULATOR = {
  namespace: NS,
  pod: 'mainnet-populator-6d9f',
  service: 'mainnet-populator',
  job: 'mainnet-populator',
};
const SERVER = { namespace: NS, pod: 'mainnet-server-7c4b', service: 'mainnet-server', job: 'mainnet-server' };
const OPERATOR = { namespace: 'mdw-system', pod: 'mdw-operator-5f7d', middleware_namespace: NS, middleware: 'mainnet' };

/** the alerts' labels per role, as their `by` clauses keep them */
export const ALERTED = {
  populator: { namespace: NS, pod: POPULATOR.pod },
  server: { namespace: NS, pod: SERVER.pod },
  populatorService: { namespace: NS, service: POPULATOR.service },
  middleware: { middleware_namespace: NS, middleware: 'mainnet' },
} as const;

function series(name: string, labels: Record<string, string>, value: (i: number) => Value): Series {
  const text = Object.entries(labels)
    .map(([k, v]) => `${k}="${v}"`)
    .join(',');
  return { series: `${name}{${text}}`, values: Array.from({ length: SAMPLES }, (_, i) => String(value(i))).join(' ') };
}

/**
 * stackSeries is what a populator, a server and the operator export, one sample per scrape, with `fault` made after
 * sample FAULT. The node adds a block every scrape.
 */
export function stackSeries(fault: Fault): Series[] {
  const after = (i: number) => i > FAULT;
  const nodeDown = (i: number) => fault === 'node stopped' && after(i);
  const dbDown = (i: number) => fault === 'database stopped' && after(i);
  const gone = (i: number) => fault === 'populator stopped' && after(i);
  /** the last sample whose scrape saw a poll answered, a batch committed */
  const lastPoll = (i: number) => (nodeDown(i) ? FAULT : i);
  const lastCommit = (i: number) => (nodeDown(i) || dbDown(i) ? FAULT : i);
  // a process that stopped exports nothing: its series end with a stale marker
  const populator = (value: (i: number) => number | 'NaN') => (i: number) => (gone(i) ? 'stale' : value(i));
  const nodeSeen = (i: number) => 100 + lastPoll(i);
  const stored = (i: number) => 100 + lastCommit(i);
  const up = (down: (i: number) => boolean) => (i: number) => (down(i) ? 0 : 1);
  return [
    series('up', POPULATOR, (i) => (gone(i) ? 0 : 1)),
    series('up', SERVER, () => 1),
    series('mdw_sync_height', POPULATOR, populator(stored)),
    series('mdw_node_height', POPULATOR, populator(nodeSeen)),
    series(
      'mdw_sync_lag_blocks',
      POPULATOR,
      populator((i) => (nodeDown(i) ? 'NaN' : nodeSeen(i) - stored(i))),
    ),
    series(
      'mdw_node_last_poll_timestamp_seconds',
      POPULATOR,
      populator((i) => lastPoll(i) * STEP_SECONDS),
    ),
    series(
      'mdw_indexer_last_commit_timestamp_seconds',
      POPULATOR,
      populator((i) => lastCommit(i) * STEP_SECONDS),
    ),
    series('mdw_populator_dependency_up', { ...POPULATOR, dependency: 'node' }, populator(up(nodeDown))),
    series('mdw_populator_dependency_up', { ...POPULATOR, dependency: 'database' }, populator(up(dbDown))),
    series(
      'mdw_derive_failing',
      { ...POPULATOR, area: 'transfers' },
      populator(() => 0),
    ),
    series('mdw_dependency_up', { ...SERVER, dependency: 'node' }, up(nodeDown)),
    series('mdw_dependency_up', { ...SERVER, dependency: 'database' }, up(dbDown)),
    ...httpSeries({ '/mdw/v3/transactions 200': 20, '/metrics 200': 1, '/readyz 200': 3 }),
    series('mdw_operator_middleware_condition', { ...OPERATOR, type: 'Reconciled', status: 'True' }, () => 1),
    series('mdw_operator_middleware_condition', { ...OPERATOR, type: 'Degraded', status: 'True' }, () => 0),
    series('mdw_operator_middleware_reload_state', { ...OPERATOR, state: 'Failed' }, (i) =>
      fault === 'reload failed' && after(i) ? 1 : 0,
    ),
    series('mdw_operator_middleware_reload_state', { ...OPERATOR, state: 'CatchingUp' }, () => 0),
    series('mdw_operator_reconcile_errors_total', { namespace: OPERATOR.namespace, pod: OPERATOR.pod }, () => 0),
  ];
}

/** httpSeries is the server's request counter, each `route status` growing by its count every scrape. */
export function httpSeries(perScrape: Record<string, number>): Series[] {
  return Object.entries(perScrape).map(([key, count]) => {
    const route = key.slice(0, key.lastIndexOf(' '));
    const status = key.slice(key.lastIndexOf(' ') + 1);
    return series('mdw_api_http_requests_total', { ...SERVER, method: 'GET', route, status }, (i) => i * count);
  });
}

/** at is promtool's duration of sample `i`'s scrape. */
export function at(i: number): string {
  return `${i * STEP_SECONDS}s`;
}

/** expect is one check of a RuleTest: `alert` fires at `time` with these label sets (none: it does not fire). */
export function expectAlert(
  alert: string,
  time: string,
  ...fired: Record<string, string>[]
): RuleTest['alert_rule_test'][number] {
  return { eval_time: time, alertname: alert, exp_alerts: fired.map((exp_labels) => ({ exp_labels })) };
}
