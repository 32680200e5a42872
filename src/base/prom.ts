/**
 * @module prom-client's metric classes and default metrics, required from their own files. Its index requires every
 * default metric, and the process CPU one requires @opentelemetry/api (51 modules) for exemplars that nothing here
 * enables; with the push gateway, the summary and the cluster aggregator, 88 modules, about 0.06 CPU-s at the start
 * of each process that serves /metrics (-p, -s, the operator). These are 25. Types come from the index's declarations,
 * which cost nothing at run time; the classes are the index's own (it requires the same files).
 */
import { createRequire } from 'node:module';
import type prom from 'prom-client';

const require = createRequire(import.meta.url);
export const Registry = require('prom-client/lib/registry.js') as typeof prom.Registry;
export const Counter = require('prom-client/lib/counter.js') as typeof prom.Counter;
export const Gauge = require('prom-client/lib/gauge.js') as typeof prom.Gauge;
export const Histogram = require('prom-client/lib/histogram.js') as typeof prom.Histogram;

/** prom-client's default metrics after the process CPU's (processCpuTotal.js), in the order its index registers them */
const DEFAULT_METRICS = [
  'processStartTime',
  'osMemoryHeap',
  'processOpenFileDescriptors',
  'processMaxFileDescriptors',
  'eventLoopLag',
  'processResources',
  'processHandles',
  'processRequests',
  'heapSizeAndUsed',
  'heapSpacesSizeAndUsed',
  'version',
  'gc',
];

type DefaultMetric = (registry: prom.Registry, config: { eventLoopMonitoringPrecision: number }) => void;

/**
 * collectDefaultMetrics registers on `registry` the process_* and nodejs_* series prom-client's collectDefaultMetrics
 * registers, in its order: its own functions, but the process CPU counters', which are these (without exemplars).
 */
export function collectDefaultMetrics(registry: prom.Registry): void {
  processCpu(registry);
  for (const name of DEFAULT_METRICS) {
    const register = require(`prom-client/lib/metrics/${name}.js`) as DefaultMetric;
    register(registry, { eventLoopMonitoringPrecision: 10 }); // the index's default
  }
}

/** processCpu counts the process's CPU seconds as prom-client's processCpuTotal.js does: brought up to date at scrape. */
function processCpu(registry: prom.Registry): void {
  const registers = [registry];
  let last = process.cpuUsage();
  const user = new Counter({
    name: 'process_cpu_user_seconds_total',
    help: 'Total user CPU time spent in seconds.',
    registers,
    collect() {
      const now = process.cpuUsage();
      user.inc((now.user - last.user) / 1e6);
      system.inc((now.system - last.system) / 1e6);
      total.inc((now.user - last.user + now.system - last.system) / 1e6);
      last = now;
    },
  });
  const system = new Counter({
    name: 'process_cpu_system_seconds_total',
    help: 'Total system CPU time spent in seconds.',
    registers,
  });
  const total = new Counter({
    name: 'process_cpu_seconds_total',
    help: 'Total user and system CPU time spent in seconds.',
    registers,
  });
}
