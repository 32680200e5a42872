/**
 * @module Issue 90: what a running populator exports, scraped from its /metrics every 2 s as Prometheus
 * scrapes it, while its node hangs (as a SIGSTOPped node: connections taken, nothing answered) and while PostgreSQL is
 * stopped, its node mining on. The scrapes are checked as they are (the lag unknown, not 0, while the node is away;
 * the node's height and the lag growing while the database is), then replayed in promtool as a 30 s scrape would
 * have seen them (every timestamp scaled with the clock): the chart's dependency alerts fire within their `for:` plus
 * two scrapes of each fault, and nothing fires before it. promtool's part skips in one line without promtool.
 */
import { expect } from 'chai';
import prom from 'prom-client';
import { loadConfig } from '../../../src/config/middleware.ts';
import { startOpsServer } from '../../../src/base/ops-server.ts';
import type { Devnode } from '../../../src/devnode/index.ts';
import { startPopulator, type Populator } from '../../../src/indexer/sync/populator.ts';
import { startGeneratedDevnode } from '../../support/devnode.ts';
import { startRestartablePostgres, type RestartablePostgres } from '../../support/restartable-postgres.ts';
import { promtoolBin, testRules } from '../../promtool/promtool.ts';
import { renderChart } from '../../operator/chart/helm.ts';
import { startFaultProxy, type FaultProxy } from './support/fault-proxy.ts';
import { silent, waitFor } from './support/harness.ts';

/**
 * the scrape interval, to the populator's node timeout and poll interval below as the defaults are to a 30 s scrape
 * (10 s, 2 s): a hung node shows within a third of a scrape and more, where 500 ms against a 400 ms timeout after a
 * 100 ms poll interval left the first scrape of the fault no margin (a loaded machine's late timer scraped it up)
 */
const SCRAPE_MS = 2000;
/** the scrape interval the recording is replayed at: the Middleware ServiceMonitor's default */
const REPLAYED_SECONDS = 30;
/** scrapes recorded in each fault: 8 replayed minutes, the dependency alerts' 3 and two scrapes well inside */
const FAULT_SCRAPES = 16;
const POPULATOR = { namespace: 'mdw', pod: 'mainnet-populator-0', service: 'mainnet-populator' };

/** A scrape: when, and each series' value by its name and labels as the exposition writes them. */
interface Scrape {
  readonly at: number;
  readonly series: Map<string, number>;
}

function parse(exposition: string): Map<string, number> {
  const series = new Map<string, number>();
  for (const line of exposition.split('\n')) {
    const m = /^(mdw_[a-z_]+(?:\{[^}]*\})?) (\S+)$/.exec(line);
    if (m && !m[1]!.includes('_bucket')) series.set(m[1]!, Number(m[2]));
  }
  return series;
}

describe('a populator whose node hangs, then whose database stops: its metrics, and the alerts on them (issue 90)', function () {
  this.timeout(300_000);
  let devnode: Devnode;
  let db: RestartablePostgres;
  let proxy: FaultProxy;
  let populator: Populator | undefined;
  let ops: Awaited<ReturnType<typeof startOpsServer>> | undefined;
  const scrapes: Scrape[] = [];
  /** the first scrape after each fault was made */
  const faults = { node: 0, database: 0 };
  let mining = true;
  let mined: Promise<void> = Promise.resolve();

  const value = (s: Scrape, name: string) => s.series.get(name);
  const dependency = (s: Scrape, d: string) => value(s, `mdw_populator_dependency_up{dependency="${d}"}`);

  /** record scrapes the populator's /metrics every SCRAPE_MS, `count` times */
  async function record(count: number): Promise<void> {
    const start = Date.now();
    for (let i = 0; i < count; i++) {
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, start + i * SCRAPE_MS - Date.now())));
      scrapes.push({ at: Date.now(), series: parse(await (await fetch(`${ops!.url}/metrics`)).text()) });
    }
  }

  async function caughtUp(what: string): Promise<void> {
    await waitFor(
      what,
      async () => {
        const s = parse(await (await fetch(`${ops!.url}/metrics`)).text());
        const up = (d: string) => s.get(`mdw_populator_dependency_up{dependency="${d}"}`) === 1;
        return s.get('mdw_sync_lag_blocks') === 0 && up('node') && up('database');
      },
      60_000,
      100,
    );
  }

  before(async () => {
    [devnode, db] = await Promise.all([
      startGeneratedDevnode({
        generations: 6,
        microBlocksPerGeneration: 1,
        txsPerMicroBlock: 2,
        seed: 'fault-metrics',
      }),
      startRestartablePostgres(),
    ]);
    proxy = await startFaultProxy(devnode.externalUrl);
    const cfg = loadConfig({
      NODE_URL: proxy.url,
      DATABASE_URL: db.url,
      DATABASE_SCHEMA: 'mdw_faults',
      POLL_INTERVAL_MS: '100',
      // a hung node's poll fails within a third of a scrape, as the default 10 s does within the default 30 s scrape,
      // even behind a batch's hung requests that hold the node's slots (one timeout more): 1.3 s of 2 s at most
      NODE_TIMEOUT_MS: '600',
      STATUS_MAX_BLOCK_AGE: String(10 ** 9),
    });
    const registry = new prom.Registry();
    populator = await startPopulator({ cfg, log: silent, registry });
    ops = await startOpsServer({ port: 0, host: '127.0.0.1', registry, log: silent });
    await caughtUp('the populator to load the chain');
    // the node adds a key block every second throughout
    mined = (async () => {
      while (mining) {
        await devnode.mineKeyBlock();
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }
    })();

    await record(8);
    proxy.hang(/./);
    faults.node = scrapes.length;
    await record(FAULT_SCRAPES);
    proxy.hang(undefined);
    await caughtUp('the populator to catch up once its node answers');
    await record(4);
    await db.stop();
    faults.database = scrapes.length;
    await record(FAULT_SCRAPES);
    await db.start();
    await caughtUp('the populator to catch up once PostgreSQL is back');
    await record(4);
  });

  after(async () => {
    mining = false;
    await mined;
    await populator?.stop();
    await ops?.stop();
    await proxy?.close();
    await devnode?.stop();
    await db?.destroy();
  });

  it('exports while healthy: both dependencies up, the lag 0 once caught up, the last poll and commit recent', () => {
    const healthy = scrapes.slice(0, faults.node);
    for (const s of healthy) {
      expect([dependency(s, 'node'), dependency(s, 'database')]).to.deep.equal([1, 1]);
      expect(s.at / 1000 - value(s, 'mdw_node_last_poll_timestamp_seconds')!).to.be.below(2);
    }
    expect(healthy.map((s) => value(s, 'mdw_sync_lag_blocks'))).to.include(0);
    expect(value(healthy.at(-1)!, 'mdw_indexer_last_commit_timestamp_seconds')).to.be.above(
      value(healthy[0]!, 'mdw_indexer_last_commit_timestamp_seconds')!,
    );
  });

  it('exports while its node hangs: the node down from the first scrape on, the lag unknown (NaN), never a stale 0', () => {
    const hung = scrapes.slice(faults.node + 1, faults.node + FAULT_SCRAPES);
    for (const s of hung) {
      expect(dependency(s, 'node'), 'node up').to.equal(0);
      expect(value(s, 'mdw_sync_lag_blocks'), 'lag').to.satisfy(Number.isNaN);
      expect(dependency(s, 'database'), 'database up').to.equal(1);
    }
    // the node's height is its last answer, whose age grows; nothing is stored
    const [first, last] = [hung[0]!, hung.at(-1)!];
    for (const name of ['mdw_node_height', 'mdw_node_last_poll_timestamp_seconds', 'mdw_sync_height'])
      expect(value(last, name), name).to.equal(value(first, name));
  });

  it('exports while PostgreSQL is stopped: the database down, the node up, its height and the lag growing, the stored top and last commit still', () => {
    const stopped = scrapes.slice(faults.database + 1, faults.database + FAULT_SCRAPES);
    for (const s of stopped) {
      expect(dependency(s, 'database'), 'database up').to.equal(0);
      expect(dependency(s, 'node'), 'node up').to.equal(1);
    }
    const [first, last] = [stopped[0]!, stopped.at(-1)!];
    expect(value(last, 'mdw_node_height')).to.be.above(value(first, 'mdw_node_height')!);
    expect(value(last, 'mdw_sync_lag_blocks')).to.be.above(value(first, 'mdw_sync_lag_blocks')!);
    expect(value(last, 'mdw_sync_lag_blocks')).to.equal(
      value(last, 'mdw_node_height')! - value(last, 'mdw_sync_height')!,
    );
    for (const name of ['mdw_sync_height', 'mdw_indexer_last_commit_timestamp_seconds'])
      expect(value(last, name), name).to.equal(value(first, name));
  });

  const promtool = promtoolBin();
  if (promtool === undefined)
    console.log('the recorded populator in promtool: skipped, no promtool built here (make promtool)');
  else
    it('fires the dependency alerts on these scrapes within their for: plus two scrapes, and nothing before the faults', async () => {
      const objects = await renderChart('mdw', 'mdw-system', '--set', 'monitoring.prometheusRule.enabled=true');
      const groups = (
        objects.find((o) => o.kind === 'PrometheusRule') as unknown as {
          spec: { groups: { name: string; rules: Record<string, unknown>[] }[] };
        }
      ).spec.groups;
      // a Unix time in the recording is a time on promtool's clock, which starts at 0 and steps 30 s a scrape: placed
      // after the last scrape before it (the waits between the recordings, for a catch-up, are not replayed)
      const replayed = (seconds: number): number => {
        const j = Math.max(
          0,
          scrapes.findLastIndex((s) => s.at <= seconds * 1000),
        );
        const since = Math.min(seconds * 1000 - scrapes[j]!.at, SCRAPE_MS);
        return (j + since / SCRAPE_MS) * REPLAYED_SECONDS;
      };
      const names = new Set(scrapes.flatMap((s) => [...s.series.keys()]));
      const labels = Object.entries(POPULATOR)
        .map(([k, v]) => `${k}="${v}"`)
        .join(',');
      const input_series = [
        { series: `up{${labels}}`, values: scrapes.map(() => '1').join(' ') },
        ...[...names].map((name) => {
          const [metric, own] = name.includes('{')
            ? [name.slice(0, name.indexOf('{')), name.slice(name.indexOf('{') + 1, -1)]
            : [name, ''];
          const values = scrapes.map((s) => {
            const v = s.series.get(name);
            if (v === undefined) return '_';
            return String(metric.endsWith('_timestamp_seconds') ? Math.round(replayed(v)) : v);
          });
          return { series: `${metric}{${[own, labels].filter((l) => l !== '').join(',')}}`, values: values.join(' ') };
        }),
      ];
      const at = (i: number) => `${i * REPLAYED_SECONDS}s`;
      const fired = { namespace: POPULATOR.namespace, pod: POPULATOR.pod, severity: 'critical' };
      const check = (alertname: string, i: number, ...alerts: Record<string, string>[]) => ({
        eval_time: at(i),
        alertname,
        exp_alerts: alerts.map((exp_labels) => ({ exp_labels })),
      });
      const everyAlert = groups.flatMap((g) => g.rules.map((r) => String(r.alert)));
      // for: 3m is 6 scrapes
      await testRules(
        promtool,
        groups,
        [
          {
            name: 'recorded populator',
            interval: `${REPLAYED_SECONDS}s`,
            input_series,
            alert_rule_test: [
              ...everyAlert.map((name) => check(name, faults.node - 1)),
              check('MiddlewareNodeUnavailable', faults.node + 5),
              check('MiddlewareNodeUnavailable', faults.node + 8, fired),
              check('MiddlewareDatabaseUnavailable', faults.node + 8),
              check('MiddlewareLagHigh', faults.node + 8),
              check('MiddlewareDatabaseUnavailable', faults.database + 5),
              check('MiddlewareDatabaseUnavailable', faults.database + 8, fired),
              check('MiddlewareNodeUnavailable', faults.database + 8),
            ],
          },
        ],
        `${REPLAYED_SECONDS}s`,
      );
    });
});
