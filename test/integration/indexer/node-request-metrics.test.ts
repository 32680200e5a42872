/**
 * @module The populator's two counts of its requests to the node, read from a scrape of its /metrics as Prometheus
 * reads them: `mdw_node_requests_total{node}` counts each answer a node gave, `mdw_outbound_request_duration_seconds`
 * (`target="node"`) each request sent, once each, however many times a request is tried (docs/operations.md).
 */
import { expect } from 'chai';
import prom from 'prom-client';
import { startOpsServer } from '../../../src/base/ops-server.ts';
import { startPopulator, type Populator } from '../../../src/indexer/sync/populator.ts';
import { startFaultProxy, type FaultProxy } from './support/fault-proxy.ts';
import { startHarness, silent, type Harness } from './support/harness.ts';

/** samples reads the samples of `name` from a Prometheus text exposition: each series' labels as text, and value. */
function samples(exposition: string, name: string): { labels: string; value: number }[] {
  return exposition.split('\n').flatMap((line) => {
    const m = /^([a-z_]+)(?:\{(.*)\})? (\S+)$/.exec(line);
    return m && m[1] === name ? [{ labels: m[2] ?? '', value: Number(m[3]) }] : [];
  });
}

/** quiet resolves once the proxies have seen no new request for `ms`. */
async function quiet(proxies: readonly FaultProxy[], ms: number): Promise<void> {
  const seen = (): number => proxies.reduce((n, p) => n + p.stats.requests, 0);
  for (let last = -1; last !== seen();) {
    last = seen();
    await new Promise((resolve) => setTimeout(resolve, ms));
  }
}

const sum = (values: readonly { value: number }[]): number => values.reduce((a, v) => a + v.value, 0);

describe("the populator's node request metrics on /metrics", function () {
  this.timeout(120_000);
  let h: Harness;
  let proxies: FaultProxy[];
  let populator: Populator | undefined;
  let ops: Awaited<ReturnType<typeof startOpsServer>> | undefined;

  before(async () => {
    h = await startHarness(40, 'node-request-metrics');
    proxies = [
      await startFaultProxy(h.devnode.externalUrl, { seed: 3 }),
      await startFaultProxy(h.devnode.externalUrl, { seed: 7, slowMs: 6000 }),
    ];
  });
  after(async () => {
    await populator?.stop();
    await ops?.stop();
    for (const p of proxies) await p.close();
    await h.close();
  });

  it('count each request once: an answer per node, a request sent in the outbound metric, a retry as one more', async () => {
    // a share of the requests answered 503 by one node and held past the timeout by the other: each is tried again
    proxies[0]!.set('5xx', 0.2);
    proxies[1]!.set('slow', 0.01);
    const registry = new prom.Registry();
    // one poll at the start, then none while the test reads: nothing in flight between the scrape and the counts
    const cfg = h.config({
      NODE_URL: proxies[0]!.url,
      NODE_URLS: proxies[1]!.url,
      // twice what a loaded machine may take to answer at all, and half the hold: an answer sent is an answer read
      NODE_TIMEOUT_MS: '3000',
      POLL_INTERVAL_MS: '600000',
    });
    populator = await startPopulator({ cfg, log: silent, registry });
    ops = await startOpsServer({ port: 0, host: '127.0.0.1', registry, log: silent });
    await populator.synced();
    // the requests the last step sent beside its write (the node's top, the derived areas' reads) end after synced
    // does: the counts are read once the nodes have seen no request for longer than a request may take
    await quiet(proxies, 4500);
    const exposition = await (await fetch(`${ops.url}/metrics`)).text();

    const [unavailable, slow] = proxies.map((p) => p.stats) as [FaultProxy['stats'], FaultProxy['stats']];
    expect(unavailable.faulted, 'requests answered 503').to.be.greaterThan(0);
    expect(slow.faulted, 'requests not answered in time').to.be.greaterThan(0);
    // a held answer comes after the timeout: never sent. On a loaded machine an answer that was not held may come too
    // late as well, so the counts are of the answers each proxy sent whole, not of the requests it did not hold.
    expect(slow.requests - slow.answered.length, 'held answers never sent').to.be.at.least(slow.faulted);
    // each answer a node gave (a 503 too) is one answer, under its node; a request not answered in time, none
    expect(samples(exposition, 'mdw_node_requests_total')).to.have.deep.members([
      { labels: `node="${proxies[0]!.url}"`, value: unavailable.answered.length },
      { labels: `node="${proxies[1]!.url}"`, value: slow.answered.length },
    ]);
    // each request sent is one in the outbound metric, by how it ended
    const outbound = samples(exposition, 'mdw_outbound_request_duration_seconds_count').filter((s) =>
      s.labels.includes('target="node"'),
    );
    const ended = (outcome: string): number => sum(outbound.filter((s) => s.labels.includes(`outcome="${outcome}"`)));
    const answered = [...unavailable.answered, ...slow.answered];
    expect(sum(outbound), 'requests sent').to.equal(unavailable.requests + slow.requests);
    expect(ended('5xx'), 'answered 503').to.equal(answered.filter((status) => status >= 500).length);
    expect(ended('timeout'), 'not answered in time').to.equal(unavailable.requests + slow.requests - answered.length);
    // and each failed attempt is one error: the 503s, the timeouts and the node's 4xx answers (an account it lacks)
    expect(sum(samples(exposition, 'mdw_node_request_errors_total'))).to.equal(
      ended('5xx') + ended('timeout') + ended('4xx'),
    );
  });
});
