import { expect } from 'chai';
import prom from 'prom-client';
import { createIndexerMetrics } from '../../../src/indexer/metrics.ts';
import { lagBlocks, SyncGauges } from '../../../src/indexer/sync/sync-gauges.ts';
import { watchNode } from '../../../src/indexer/sync/node-watch.ts';

/** value reads one sample of the registry's exposition, as Prometheus would (NaN as `NaN`). */
async function value(registry: prom.Registry, series: string): Promise<number | undefined> {
  const line = (await registry.metrics()).split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('the populator sync gauges (issue 90)', () => {
  it('lagBlocks is the node top minus the stored top, never negative', () => {
    expect(lagBlocks(298, 165)).to.equal(133);
    expect(lagBlocks(165, 165)).to.equal(0);
    expect(lagBlocks(164, 165)).to.equal(0);
  });

  it('say the lag is unknown (NaN) while the node cannot be asked, not the last one, and which dependency is down', async () => {
    const registry = new prom.Registry();
    const start = Date.now() / 1000;
    const gauges = new SyncGauges(createIndexerMetrics(registry));
    // nothing committed yet: the age counts from the start, never from 1970
    expect(await value(registry, 'mdw_indexer_last_commit_timestamp_seconds')).to.be.within(start - 1, start + 1);
    gauges.stored(165);
    gauges.polled(165);
    expect(await value(registry, 'mdw_sync_lag_blocks')).to.equal(0);
    expect(await value(registry, 'mdw_populator_dependency_up{dependency="node"}')).to.equal(1);
    const polledAt = await value(registry, 'mdw_node_last_poll_timestamp_seconds');
    expect(polledAt).to.be.within(start - 1, Date.now() / 1000 + 1);
    gauges.pollFailed();
    expect(await value(registry, 'mdw_sync_lag_blocks')).to.satisfy(Number.isNaN);
    expect(await value(registry, 'mdw_populator_dependency_up{dependency="node"}')).to.equal(0);
    // the node's height stays its last answer, and its age grows: the poll's time does not move
    expect(await value(registry, 'mdw_node_height')).to.equal(165);
    expect(await value(registry, 'mdw_node_last_poll_timestamp_seconds')).to.equal(polledAt);
    // a stored top learnt meanwhile leaves the lag unknown until the node answers
    gauges.stored(166);
    expect(await value(registry, 'mdw_sync_lag_blocks')).to.satisfy(Number.isNaN);
    gauges.polled(298);
    expect(await value(registry, 'mdw_sync_lag_blocks')).to.equal(132);
  });

  it('keep the lag growing with the node while the database is away, and say so', async () => {
    const registry = new prom.Registry();
    const gauges = new SyncGauges(createIndexerMetrics(registry));
    expect(await value(registry, 'mdw_populator_dependency_up{dependency="database"}')).to.equal(undefined);
    gauges.database(true);
    gauges.stored(165);
    gauges.polled(165);
    gauges.database(false);
    gauges.polled(298);
    expect(await value(registry, 'mdw_populator_dependency_up{dependency="database"}')).to.equal(0);
    expect(await value(registry, 'mdw_sync_lag_blocks')).to.equal(133);
  });
});

describe('watchNode (issue 90)', () => {
  it("asks the node's top only in intervals nobody else asked it, and says when it does not answer", async () => {
    const registry = new prom.Registry();
    const gauges = new SyncGauges(createIndexerMetrics(registry));
    let asked = 0;
    let answer: number | Error = 7;
    const poll = {
      topHeight: () => {
        asked++;
        return answer instanceof Error ? Promise.reject(answer) : Promise.resolve(answer);
      },
    };
    const stop = new AbortController();
    const watching = watchNode({ poll, gauges, intervalMs: 100 }, stop.signal);
    const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    await wait(250);
    expect(asked).to.be.at.least(1);
    expect(await value(registry, 'mdw_node_height')).to.equal(7);
    // the follower polling every 10 ms: the watch asks nothing
    const polling = setInterval(() => gauges.polled(8), 10);
    await wait(150);
    const before = asked;
    await wait(400);
    clearInterval(polling);
    expect(asked).to.equal(before);
    // the follower busy elsewhere, the node gone: the watch tells it
    answer = new Error('timeout');
    await wait(350);
    expect(await value(registry, 'mdw_populator_dependency_up{dependency="node"}')).to.equal(0);
    stop.abort();
    await watching;
  });
});
