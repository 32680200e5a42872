/**
 * @module Issue 90: the chart's alerts evaluated by Prometheus' own promtool on the series a Middleware exports in each
 * fault (alert-scenarios.ts): each fires within its `for:` plus two scrapes of its expression turning true, no sooner,
 * and nothing fires on a healthy stack. Skipped in one line where promtool is not built (test/promtool/build.sh).
 */
import { expect } from 'chai';
import type { KubeObject } from '../../../src/operator/kube/client.ts';
import { checkRules, testRules, withPromtool, type RuleTest } from '../../promtool/promtool.ts';
import {
  ALERTED,
  ALERTS,
  at,
  expectAlert as alert,
  FAULT,
  httpSeries,
  stackSeries,
  STEP_SECONDS,
} from './alert-scenarios.ts';
import { renderChart } from './helm.ts';

type Groups = { name: string; rules: Record<string, unknown>[] }[];

/** the scrape `n` scrapes after the fault's first (the sample after FAULT) */
const after = (n: number): string => at(FAULT + 1 + n);
/** scrapes in a `for:` of `minutes` */
const scrapes = (minutes: number): number => (minutes * 60) / STEP_SECONDS;
/** the first scrape after the fault's whose 15 minutes back hold only the stored height of the fault's scrape */
const STORED_FLAT_15M = scrapes(15) - 2;
const critical = (labels: Record<string, string>) => ({ ...labels, severity: 'critical' });

/** firesOnTime: `name` does not fire one scrape before its `for:` ran out since `trueFrom`, and fires two scrapes after. */
function firesOnTime(name: string, trueFrom: number, forMinutes: number, ...fired: Record<string, string>[]) {
  const due = trueFrom + scrapes(forMinutes);
  return [alert(name, after(due - 1)), alert(name, after(due + 2), ...fired)];
}

function scenario(name: string, series: RuleTest['input_series'], checks: RuleTest['alert_rule_test']): RuleTest {
  return { name, interval: `${STEP_SECONDS}s`, input_series: series, alert_rule_test: checks };
}

withPromtool('the chart alerts under promtool (issue 90)', function (promtool) {
  this.timeout(60_000);
  let groups: Groups;

  before(async () => {
    const objects: KubeObject[] = await renderChart(
      'mdw',
      'mdw-system',
      '--set',
      'monitoring.prometheusRule.enabled=true',
    );
    groups = (objects.find((o) => o.kind === 'PrometheusRule') as unknown as { spec: { groups: Groups } }).spec.groups;
    expect(groups.flatMap((g) => g.rules.map((r) => r.alert))).to.have.members(ALERTS);
  });

  it('are valid rules for promtool, their annotations templates included', async () =>
    expect(await checkRules(promtool, groups)).to.match(/SUCCESS: 12 rules found/));

  it('fire nothing on a healthy stack: in its first five minutes, and after half an hour', async () => {
    const checks = ['5m', '20m', '35m'].flatMap((time) => ALERTS.map((name) => alert(name, time)));
    await testRules(promtool, groups, [scenario('healthy', stackSeries('none'), checks)], `${STEP_SECONDS}s`);
  });

  it('say at once that the node is gone (server and populator), and that the populator is stuck 20 minutes later', async () => {
    const checks = [
      ...firesOnTime('MiddlewareNodeUnavailable', 0, 3, critical(ALERTED.populator), critical(ALERTED.server)),
      alert('MiddlewareDatabaseUnavailable', after(scrapes(3) + 2)),
      // the stored height flat for 15 minutes (the fault's scrape saw its last change) with the node unanswered for 5
      ...firesOnTime('MiddlewarePopulatorStuck', STORED_FLAT_15M, 5, critical(ALERTED.populator)),
      // the lag is unknown, not high; the node's height does not move either: nothing to commit as far as it knows
      alert('MiddlewareLagHigh', after(scrapes(20) + 2)),
      alert('MiddlewarePopulatorNotCommitting', after(scrapes(20) + 2)),
    ];
    await testRules(promtool, groups, [scenario('node stopped', stackSeries('node stopped'), checks)], '30s');
  });

  it('say at once that PostgreSQL is gone, then that the populator commits nothing while the node moves, then stuck', async () => {
    const checks = [
      ...firesOnTime('MiddlewareDatabaseUnavailable', 0, 3, critical(ALERTED.populator), critical(ALERTED.server)),
      alert('MiddlewareNodeUnavailable', after(scrapes(3) + 2)),
      // the last commit older than 600 s (the fault's scrape was its last) while the node grew
      ...firesOnTime('MiddlewarePopulatorNotCommitting', scrapes(10), 2, critical(ALERTED.populator)),
      ...firesOnTime('MiddlewarePopulatorStuck', STORED_FLAT_15M, 5, critical(ALERTED.populator)),
    ];
    await testRules(promtool, groups, [scenario('database stopped', stackSeries('database stopped'), checks)], '30s');
  });

  it('say that a populator stopped exports nothing, and nothing else about it', async () => {
    const checks = [
      ...firesOnTime('MiddlewarePopulatorDown', 0, 5, critical(ALERTED.populatorService)),
      ...['MiddlewareNodeUnavailable', 'MiddlewareDatabaseUnavailable', 'MiddlewarePopulatorStuck'].map((name) =>
        alert(name, after(scrapes(20) + 2)),
      ),
    ];
    await testRules(promtool, groups, [scenario('populator stopped', stackSeries('populator stopped'), checks)], '30s');
  });

  it('say that a reload failed, and leave Degraded to it', async () => {
    const checks = [
      ...firesOnTime('MiddlewareReloadFailed', 0, 1, { ...ALERTED.middleware, severity: 'warning' }),
      alert('MiddlewareDegraded', after(scrapes(10) + 2)),
    ];
    await testRules(promtool, groups, [scenario('reload failed', stackSeries('reload failed'), checks)], '30s');
  });

  it('judge the 5xx ratio on the answers to clients: scrapes, probes and clients that gave up (499) neither dilute it nor count as errors', async () => {
    // 2 answers in 22 are 503 (9 %): 40 scrapes of /metrics would have diluted that under 5 %
    const diluted = httpSeries({ '/mdw/v3/transactions 200': 20, '/mdw/v3/transactions 503': 2, '/metrics 200': 40 });
    // the kubelet asking /readyz of a server not ready: 503s that are no error
    const probes = httpSeries({ '/mdw/v3/transactions 200': 20, '/readyz 503': 4, '/healthz 200': 4 });
    // half the clients gave up (499): 2 answers in 22 are 503 (9 %), though 2 requests in 42 (4.8 %)
    const gaveUp = httpSeries({
      '/mdw/v3/transactions 200': 20,
      '/mdw/v3/transactions 499': 20,
      '/v2 forwarded 503': 2,
    });
    const gaveUpOnly = httpSeries({ '/mdw/v3/transactions 200': 20, '/v2 forwarded 499': 20 });
    const at20 = '20m';
    await testRules(
      promtool,
      groups,
      [
        scenario('scrapes do not dilute', diluted, [
          alert('MiddlewareHttp5xxRatio', at20, { namespace: 'mdw', severity: 'warning' }),
        ]),
        scenario('probes are no errors', probes, [alert('MiddlewareHttp5xxRatio', at20)]),
        scenario('clients that gave up do not dilute', gaveUp, [
          alert('MiddlewareHttp5xxRatio', at20, { namespace: 'mdw', severity: 'warning' }),
        ]),
        scenario('a client that gave up is no error', gaveUpOnly, [alert('MiddlewareHttp5xxRatio', at20)]),
      ],
      '30s',
    );
  });
});
