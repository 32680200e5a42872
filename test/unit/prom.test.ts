/** @module prom.ts: prom-client's classes and default metrics without its index, against the index's own. */
import { expect } from 'chai';
import prom from 'prom-client';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from '../../src/base/prom.ts';

/** the series of a registry, by name: type, help and label names (the values are the process's, read at scrape) */
async function series(registry: prom.Registry) {
  return (await registry.getMetricsAsJSON()).map((m) => ({
    name: m.name,
    type: m.type,
    help: m.help,
    labels: [...new Set(m.values.map((v) => Object.keys(v.labels).join(',')))],
  }));
}

describe('prom.ts (prom-client without its index)', () => {
  it("registers the series prom-client's collectDefaultMetrics registers, in its order", async () => {
    const theirs = new prom.Registry();
    prom.collectDefaultMetrics({ register: theirs });
    const ours = new Registry();
    collectDefaultMetrics(ours);
    expect(await series(ours)).to.deep.equal(await series(theirs));
  });

  it("counts the process's CPU seconds, growing between scrapes", async () => {
    const registry = new Registry();
    collectDefaultMetrics(registry);
    const seconds = async () => {
      const metrics = await registry.getMetricsAsJSON();
      const value = (name: string) => metrics.find((m) => m.name === name)!.values[0]!.value;
      return {
        user: value('process_cpu_user_seconds_total'),
        system: value('process_cpu_system_seconds_total'),
        total: value('process_cpu_seconds_total'),
      };
    };
    const before = await seconds();
    const until = process.cpuUsage().user + 20_000; // 20 ms of CPU spent between the scrapes
    while (process.cpuUsage().user < until);
    const after = await seconds();
    expect(after.user - before.user).to.be.at.least(0.02);
    expect(after.total).to.be.closeTo(after.user + after.system, 1e-9);
  });

  // one copy of each class, whichever entry a caller took (the tests make their registries from the index)
  it("gives the index's own classes", () => {
    expect(Registry).to.equal(prom.Registry);
    expect(Counter).to.equal(prom.Counter);
    expect(Gauge).to.equal(prom.Gauge);
    expect(Histogram).to.equal(prom.Histogram);
  });
});
